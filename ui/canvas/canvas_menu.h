// SPDX-License-Identifier: MIT
#pragma once
#include <QPointF>

class QMainWindow;
class QMenu;

namespace costscope {

class DocumentController;
class GraphPresenter;

// The right-click menu of the empty canvas: with a graph open, the view's actions (fit, costliest, groups,
// minimap, direction, parameters) and paste and export; without one, Open, the recent files and the templates.
// The entries are the window's own actions (found by object name), so shortcuts and checked states agree.
void fillCanvasMenu(QMainWindow* window, DocumentController* documents, bool graphOpen, QMenu* menu);

// Fills every right-click menu of the presenter's canvas with fillCanvasMenu.
void installCanvasMenu(QMainWindow* window, GraphPresenter* presenter, DocumentController* documents);

} // namespace costscope
