// SPDX-License-Identifier: MIT
#pragma once
#include <QPointF>

class QMenu;

namespace costscope {

class MainWindow;

// The right-click menu of the empty canvas: with a graph open, the view's actions (fit, costliest, groups,
// minimap, direction, parameters) and paste and export; without one, Open, the recent files and the templates.
// The entries are the window's own actions (found by object name), so shortcuts and checked states agree.
void fillCanvasMenu(MainWindow* window, QMenu* menu);

// Fills every right-click menu of the window's canvas with fillCanvasMenu.
void installCanvasMenu(MainWindow* window);

} // namespace costscope
