// SPDX-License-Identifier: MIT
#pragma once
#include <QString>
#include <Qt>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace costscope {

// Docks `panel` in `window` as `objectName` (the name saved window states know it by), as a tab of the dock named
// `tabOf` where there is one.
QDockWidget* addPanelDock(QMainWindow* window, QWidget* panel, const QString& title, const QString& objectName,
                          Qt::DockWidgetArea area, const QString& tabOf = {});

} // namespace costscope
