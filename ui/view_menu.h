// SPDX-License-Identifier: MIT
#pragma once

class QMainWindow;
class QMenu;

namespace costscope {

class GraphPresenter;

// The View menu: parameters shown, direction, zoom and fit, minimap, the absolute heat scale, groups collapsed or
// expanded, find, and a toggle for each dock `window` has so far.
QMenu* addViewMenu(QMainWindow* window, GraphPresenter* presenter);

} // namespace costscope
