// SPDX-License-Identifier: MIT
#include "panel_dock.h"
#include <QDockWidget>
#include <QMainWindow>

namespace costscope {

QDockWidget* addPanelDock(QMainWindow* window, QWidget* panel, const QString& title, const QString& objectName,
                          Qt::DockWidgetArea area, const QString& tabOf)
{
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    window->addDockWidget(area, dock);
    if (auto* other = tabOf.isEmpty() ? nullptr : window->findChild<QDockWidget*>(tabOf))
        window->tabifyDockWidget(other, dock);
    return dock;
}

} // namespace costscope
