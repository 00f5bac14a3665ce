// SPDX-License-Identifier: MIT
#pragma once
#include <QString>

namespace costscope {

class MainWindow;

// What each cost model is, why they disagree and which to trust, in the words the UI shows.
QString costModelToolTip(const QString& model); // per entry of the model selector; empty for an unknown model
QString costModelsExplanation();                // the "?" beside the selector

// Explains the two models where they are picked: a tooltip on each entry of the toolbar's model selector and a
// "?" button after it that opens the explanation (a non-modal box named "modelsExplanation").
void explainCostModels(MainWindow* window);

} // namespace costscope
