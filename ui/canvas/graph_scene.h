// SPDX-License-Identifier: MIT
#pragma once
#include "canvas/group_tree.h"
#include "canvas/overlay_model.h"
#include "layout/layered_layout.h"
#include <QGraphicsScene>
#include <memory>
#include <vector>

namespace costscope {

class LayoutJob;
class NodeItem;

// Draws the visible part of a graph (nodes and collapsed groups) at the positions the layout job computes.
// The graph is read-only here: the scene only maps items to graph positions and groups.
class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    void setGraph(std::shared_ptr<const Graph> graph);
    const Graph* graph() const { return m_graph.get(); }
    const GroupTree& groups() const { return m_tree; }
    const ViewGraph& viewGraph() const { return m_view; }
    void setOverlay(const OverlayModel* overlay); // not owned; call refreshOverlay() when it changes
    void refreshOverlay();

    void setGroupCollapsed(int group, bool collapsed);
    bool isGroupCollapsed(int group) const;
    void toggleGroup(int group);
    void collapseAll();
    void expandAll();
    void setShowParams(bool show);
    bool showParams() const { return m_showParams; }
    void setDirection(layout::Direction d);
    layout::Direction direction() const { return m_direction; }

    int visibleNodeItemCount() const { return static_cast<int>(m_items.size()); }
    NodeItem* itemForUnit(int unit) const;
    NodeItem* itemForNode(std::size_t nodeIndex) const; // the node's box, or its collapsed group's
    // Selects the box that shows the node; expands nothing. Returns false when the node is hidden.
    bool selectNode(std::size_t nodeIndex);
    int selectedNode() const; // graph position, or -1

signals:
    void layoutFinished();
    void nodeSelected(int nodeIndex);   // -1 when nothing (or a group) is selected
    void groupSelected(int group);

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;

private:
    void rebuildView();
    void applyLayout(std::shared_ptr<const layout::LayoutResult> result);
    void onSelectionChanged();
    int innermostGroupOf(const NodeItem* item) const;

    std::shared_ptr<const Graph> m_graph;
    GroupTree m_tree;
    std::vector<bool> m_collapsed;
    ViewGraph m_view;
    bool m_showParams = true;
    layout::Direction m_direction = layout::Direction::TopToBottom;
    const OverlayModel* m_overlay = nullptr;
    LayoutJob* m_job;
    std::shared_ptr<const layout::LayoutHint> m_hint;
    std::vector<NodeItem*> m_items; // per unit of m_view, once laid out
    ViewGraph m_laidOut;            // the view m_items were built for
};

} // namespace costscope
