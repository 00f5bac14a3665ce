// SPDX-License-Identifier: MIT
#include "view_settings.h"
#include "analysis_controls.h"
#include <QAction>
#include <QComboBox>
#include <QSettings>
#include <QSpinBox>

namespace costscope {

namespace {
constexpr const char* kViewToggles[] = {"actionShowParams", "actionLeftToRight", "actionMinimap", "actionAbsoluteHeat"};
}

void restoreViewSettings(const QSettings& settings, const AnalysisControls& controls, const QObject& window)
{
    auto restoreText = [&](QComboBox* box, const char* key) {
        const int i = box->findText(settings.value(QLatin1String(key)).toString());
        if (i >= 0)
            box->setCurrentIndex(i);
    };
    restoreText(controls.modelSelector(), "view/model");
    restoreText(controls.deviceSelector(), "view/device");
    restoreText(controls.overlaySelector(), "view/overlay");
    if (settings.contains(QStringLiteral("view/batch")))
        controls.batchSpin()->setValue(settings.value(QStringLiteral("view/batch")).toInt());
    for (const char* name : kViewToggles)
        if (auto* action = window.findChild<QAction*>(QLatin1String(name));
            action && settings.contains(QStringLiteral("view/") + QLatin1String(name)))
            action->setChecked(settings.value(QStringLiteral("view/") + QLatin1String(name)).toBool());
}

void saveViewSettings(QSettings& settings, const AnalysisControls& controls, const QObject& window)
{
    settings.setValue(QStringLiteral("view/model"), controls.modelSelector()->currentText());
    settings.setValue(QStringLiteral("view/device"), controls.deviceSelector()->currentText());
    settings.setValue(QStringLiteral("view/overlay"), controls.overlaySelector()->currentText());
    settings.setValue(QStringLiteral("view/batch"), controls.batchSpin()->value());
    for (const char* name : kViewToggles)
        if (auto* action = window.findChild<QAction*>(QLatin1String(name)))
            settings.setValue(QStringLiteral("view/") + QLatin1String(name), action->isChecked());
}

} // namespace costscope
