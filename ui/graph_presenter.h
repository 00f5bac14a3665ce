// SPDX-License-Identifier: MIT
#pragma once
// The open graph as every view shows it: the canvas, the node table, the properties, the summary, the per-device
// table, the legend and the search; the selection kept in step between them; costs and measured times shown on all.
// It owns the overlay (the graph with its costs and measured times) and the feed the panels and charts follow.
#include "canvas/overlay_model.h"
#include "graph_views.h"
#include "ir/graph.h"
#include "open_graph_feed.h"

#include <QObject>

#include <memory>
#include <optional>
#include <vector>

namespace costscope {

struct DeviceCosts;
struct GraphCost;

class GraphPresenter : public QObject {
    Q_OBJECT
public:
    GraphPresenter(GraphViews views, AnalysisSettingsOwner* settings, QObject* parent);

    const GraphViews& views() const { return m_views; }
    std::shared_ptr<const Graph> graph() const { return m_graph; }
    OverlayModel& overlay() { return m_overlay; }
    const OverlayModel& overlay() const { return m_overlay; }
    OpenGraphFeed* feed() const { return m_feed; }

    // A fresh graph (opened, new, restored) is laid out anew and fitted; an edited one keeps its boxes in place.
    void showGraph(std::shared_ptr<const Graph> graph, bool fresh);
    void showCosts(std::shared_ptr<const GraphCost> cost);
    // A run's measured ns per node index of `graph` for the Measured overlay; ignored unless `graph` is the open one.
    void showMeasured(const std::shared_ptr<const Graph>& graph, std::vector<std::optional<double>> nsByNode);
    // Costs on every device for the current model and bindings (nullptr before they are computed): the per-device
    // table shows the selected node's.
    std::shared_ptr<const DeviceCosts> deviceCosts() const { return m_deviceCosts; }
    void setDeviceCosts(std::shared_ptr<const DeviceCosts> costs);
    // Selects the node on the canvas and in the tables, and scrolls the canvas to it.
    void selectNode(NodeId id);
    std::vector<NodeId> selectedNodeIds() const;
    // The overlay's mode or scale changed: the canvas and the legend draw it again.
    void refreshOverlay();
    // The next layout is fitted to the window (a fresh graph, a new direction).
    void fitOnNextLayout(bool fit) { m_fitOnLayout = fit; }
    // Whether the open graph's document restored a saved view (zoom and position), which the first view keeps.
    bool restoredSavedView() const { return m_savedView; }
    void setRestoredSavedView()
    {
        m_savedView = true;
        m_fitOnLayout = false;
    }

signals:
    void layoutReady();

private:
    void onCanvasSelection(std::optional<NodeId> id);
    void onTableSelection(NodeId id);
    void showNode(std::optional<NodeId> id);

    GraphViews m_views;
    std::shared_ptr<const Graph> m_graph;
    OverlayModel m_overlay;
    OpenGraphFeed* m_feed;
    std::shared_ptr<const DeviceCosts> m_deviceCosts;
    bool m_fitOnLayout = false;
    bool m_savedView = false; // the open document brought back its own view (no first-view framing)
    bool m_syncingSelection = false;
};

} // namespace costscope
