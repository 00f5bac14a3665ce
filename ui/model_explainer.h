// SPDX-License-Identifier: MIT
#pragma once
#include <QString>

class QComboBox;
class QWidget;

namespace costscope {

// What each cost model is, why they disagree and which to trust, in the words the UI shows.
QString costModelToolTip(const QString& model); // per entry of the model selector; empty for an unknown model
QString costModelsExplanation();                // the "?" beside the selector

// Explains the two models where they are picked: a tooltip on each entry of the toolbar's model selector and a
// "?" button after it (in its toolbar) that opens the explanation over `window` (a non-modal box named
// "modelsExplanation").
void explainCostModels(QComboBox* models, QWidget* window);

} // namespace costscope
