// SPDX-License-Identifier: MIT
#pragma once

class QObject;
class QSettings;

namespace costscope {

class AnalysisControls;

// What the user chose to look at survives a restart: model, device, batch, overlay (from `controls`) and the View
// menu's toggles (actions of `window`, found by object name).
void restoreViewSettings(const QSettings& settings, const AnalysisControls& controls, const QObject& window);
void saveViewSettings(QSettings& settings, const AnalysisControls& controls, const QObject& window);

} // namespace costscope
