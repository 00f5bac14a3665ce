// SPDX-License-Identifier: MIT
#pragma once

class QDockWidget;
class QMainWindow;
class QStatusBar;

namespace costscope {

class CanvasView;
class DeviceCostTable;
class GraphScene;
class LegendWidget;
class NodeTableModel;
class NodeTablePanel;
class PropertyPanel;
class SearchBar;
class SummaryPanel;

// The views of the open graph that GraphPresenter drives.
struct GraphViews {
    GraphScene* scene = nullptr;
    CanvasView* canvas = nullptr;
    NodeTableModel* tableModel = nullptr;
    NodeTablePanel* table = nullptr;
    PropertyPanel* properties = nullptr;
    QDockWidget* propertiesDock = nullptr; // brought forward when a node is selected
    SummaryPanel* summary = nullptr;
    QDockWidget* summaryDock = nullptr;
    DeviceCostTable* deviceTable = nullptr;
    LegendWidget* legend = nullptr;
    SearchBar* search = nullptr;
    QStatusBar* status = nullptr;
};

// Lays the views out in `window`: the canvas in the middle; Properties (with the per-device costs below it) tabbed
// behind Summary on the right; Nodes below. The legend and the search live in the Analysis toolbar.
GraphViews addGraphViews(QMainWindow* window, LegendWidget* legend, SearchBar* search);

} // namespace costscope
