// SPDX-License-Identifier: MIT
#pragma once
#include "canvas/overlay_model.h"
#include "layout/group_tree.h"
#include "layout/layered_layout.h"
#include <QGraphicsScene>
#include <QSizeF>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QGraphicsLineItem;
class QTimer;
class QMenu;

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
    // The same document after an edit: groups keep their open/closed state and the layout starts from the last
    // one, so what did not change stays where it was.
    void updateGraph(std::shared_ptr<const Graph> graph);
    // Invalid nodes by id, with why (drawn red, said in their tooltip).
    void setProblems(std::map<NodeId, std::string> problems);
    const std::map<NodeId, std::string>& problems() const { return m_problems; }
    // Outlines by node id (graph diffs); kept across relayouts.
    void setMarks(std::map<NodeId, QColor> marks);
    // Missed fusions by node id (a badge with the fusion report's reason and hint; a collapsed group counts its
    // members'); kept across relayouts.
    void setFusionHints(std::map<NodeId, std::string> hints);
    const std::map<NodeId, std::string>& fusionHints() const { return m_fusionHints; }
    const Graph* graph() const { return m_graph.get(); }
    const GroupTree& groups() const { return m_tree; }
    const ViewGraph& viewGraph() const { return m_view; }
    void setOverlay(const OverlayModel* overlay); // not owned; call refreshOverlay() when it changes
    void refreshOverlay();

    void setGroupCollapsed(int group, bool collapsed);
    bool isGroupCollapsed(int group) const;
    void toggleGroup(int group);
    // Collapses every group at every level: the outermost show as boxes, and opening one shows its subgroups.
    void collapseAll();
    // Opens a group and every group below it.
    void expandGroupFully(int group);
    void expandAll();
    // The collapsed groups by path (what a saved document keeps), and all of them set at once (one fresh layout).
    std::vector<std::string> collapsedGroups() const;
    void setCollapsedGroups(const std::vector<std::string>& paths);
    // A neighbourhood view: only the nodes within `hops` edges of a node, each in its own box (groups do not
    // apply), until showAll(). It follows edits while its centre node exists.
    void showNeighbourhood(std::size_t nodeIndex, int hops);
    void showAll();
    bool showsNeighbourhood() const { return !m_only.empty(); }
    int neighbourhoodCentre() const; // graph position, or -1 when everything is shown
    int neighbourhoodHops() const { return m_hops; }
    // The hop count the next neighbourhood uses; a neighbourhood on show is redrawn with it.
    void setNeighbourhoodHops(int hops);
    void setShowParams(bool show);
    bool showParams() const { return m_showParams; }
    void setDirection(layout::Direction d);
    layout::Direction direction() const { return m_direction; }
    // The size, in pixels, of the view the graph is fitted into: a long drawing folds into columns of that shape.
    // A change lays the graph out again once resizing settles (refolded() then comes before layoutFinished()).
    void setFoldSize(QSizeF pixels);
    QSizeF foldSize() const { return m_foldSize; }

    int visibleNodeItemCount() const { return static_cast<int>(m_items.size()); }
    NodeItem* itemForUnit(int unit) const;
    NodeItem* itemForNode(std::size_t nodeIndex) const; // the node's box, or its collapsed group's
    // Selects the box that shows the node; expands nothing. Returns false when the node is hidden.
    bool selectNode(std::size_t nodeIndex);
    int selectedNode() const; // graph position, or -1
    std::optional<NodeId> selectedNodeId() const; // the selected node's box (not a group's), by id
    int selectedGroup() const; // the group of a selected collapsed box, or -1
    // Every node whose box, or collapsed group's box, is selected, by id in graph order: what the selection is. It
    // follows the nodes across the relayout after an edit (positions shift when a node before them is deleted).
    std::vector<NodeId> selectedNodeIds() const;
    // Selects the box that shows the node (its own, or its collapsed group's); false when it is not drawn.
    bool selectNodeId(NodeId id);
    // The box that shows the node, by id in the drawing on show (a newer graph may still be laid out).
    NodeItem* itemForNodeId(NodeId id) const;
    // Selected edges between two node boxes, as (producer, consumer) ids.
    std::vector<std::pair<NodeId, NodeId>> selectedEdges() const;
    // The node's box (not a collapsed group's) under a scene point, or nullptr / -1.
    NodeItem* nodeItemAt(QPointF scenePos) const;
    std::optional<NodeId> nodeAt(QPointF scenePos) const;
    // Input ports a node shows for editing: its inputs, plus one free port while the op takes more.
    static int inputPortCount(const Node& n);

signals:
    void layoutFinished();
    // Nodes are named by id in what the scene says: positions shift with every edit, and the drawing on show may
    // be of the graph before the edit while the next one is laid out.
    void nodeSelected(std::optional<costscope::NodeId> id); // nullopt when nothing (or a group) is selected
    void groupSelected(int group);
    // A drag from `from`'s output port was released on input port `slot` of `to`.
    void connectRequested(costscope::NodeId from, costscope::NodeId to, int slot);
    // The context menu of a node is about to open: listeners add their actions to it.
    void nodeContextMenu(costscope::NodeId id, QMenu* menu);
    // After a group was collapsed or expanded and laid out again: where it now is (its box, or its members), for
    // the view to bring into sight (the old scroll position may show empty space).
    void focusRequested(QRectF sceneRect);
    // A neighbourhood view was shown, changed or left.
    void neighbourhoodChanged();
    // The layout about to be announced by layoutFinished() follows a new fold size (setFoldSize).
    void refolded();

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;

private:
    void rebuildView();
    void applyLayout(std::shared_ptr<const layout::LayoutResult> result);
    void onSelectionChanged();
    void applyProblems();

    int innermostGroupOf(const NodeItem* item) const;
    std::optional<NodeId> idOfUnit(int unit) const; // the node a box shows; nullopt for a group's box
    std::vector<std::size_t> selectedNodes() const; // selectedNodeIds() as positions in the graph on show

    std::shared_ptr<const Graph> m_graph;
    GroupTree m_tree;
    std::vector<bool> m_collapsed;
    std::vector<bool> m_only; // the nodes a neighbourhood view shows; empty: all
    NodeId m_centre = 0;      // its centre, by id (positions change with edits)
    int m_hops = 2;
    ViewGraph m_view;
    bool m_showParams = true;
    layout::Direction m_direction = layout::Direction::TopToBottom;
    const OverlayModel* m_overlay = nullptr;
    LayoutJob* m_job;
    std::shared_ptr<const layout::LayoutHint> m_hint;
    std::vector<NodeItem*> m_items; // per unit of m_view, once laid out
    ViewGraph m_laidOut;            // the view m_items were built for
    // The graph and groups of m_laidOut: an edit replaces m_graph and m_tree before the new layout is drawn.
    std::shared_ptr<const Graph> m_laidOutGraph;
    GroupTree m_laidOutTree;
    std::map<NodeId, std::string> m_problems;
    std::map<NodeId, QColor> m_marks;
    std::map<NodeId, std::string> m_fusionHints;
    // A 1280x800 window's canvas until a view says its size.
    QSizeF m_foldSize{990, 700};
    QSizeF m_laidOutFoldSize;                 // the fold size of the layout on show or under way
    QTimer* m_refold;                         // settles a resize before laying out again
    bool m_refolding = false;                 // the layout under way follows a fold size change
    int m_focusGroup = -1;                    // the group just collapsed or expanded, until laid out
    std::optional<NodeId> m_dragFrom;         // the node a connection is dragged from
    QGraphicsLineItem* m_dragLine = nullptr;  // the rubber band of that drag
};

} // namespace costscope
