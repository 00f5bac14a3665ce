// SPDX-License-Identifier: MIT
#include "canvas/graph_scene.h"
#include "canvas/edge_item.h"
#include "canvas/group_frames.h"
#include "canvas/node_content.h"
#include "canvas/node_item.h"
#include "jobs/layout_job.h"
#include "layout/neighbourhood.h"
#include <QGraphicsLineItem>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneMouseEvent>
#include <QMenu>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace costscope {

namespace {
// Around the drawing, in scene units: the scene rect's margin (applyLayout).
constexpr double kSceneMargin = 60;
} // namespace

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent), m_job(new LayoutJob(this)), m_refold(new QTimer(this))
{
    setBackgroundBrush(QColor(0xf5, 0xf6, 0xf8));
    connect(m_job, &LayoutJob::finished, this, &GraphScene::applyLayout);
    m_refold->setSingleShot(true);
    m_refold->setInterval(200);
    connect(m_refold, &QTimer::timeout, this, [this] {
        m_refolding = true;
        rebuildView();
    });
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene()
{
    // Items first: their selection changes must not reach a half-destroyed scene.
    disconnect(this, &QGraphicsScene::selectionChanged, this, nullptr);
    clear();
}

void GraphScene::setGraph(std::shared_ptr<const Graph> graph)
{
    m_graph = std::move(graph);
    m_tree = m_graph ? GroupTree::build(*m_graph) : GroupTree{};
    m_collapsed = m_graph ? initialCollapse(m_tree, m_graph->nodes.size()) : std::vector<bool>{};
    m_hint.reset();
    const bool hadNeighbourhood = showsNeighbourhood();
    m_only.clear();
    rebuildView();
    if (hadNeighbourhood)
        emit neighbourhoodChanged();
}

void GraphScene::updateGraph(std::shared_ptr<const Graph> graph)
{
    std::map<std::string, bool> wasCollapsed;
    for (std::size_t g = 1; g < m_collapsed.size() && g < m_tree.groups.size(); ++g)
        wasCollapsed[m_tree.groups[g].path] = m_collapsed[g];
    m_graph = std::move(graph);
    m_tree = m_graph ? GroupTree::build(*m_graph) : GroupTree{};
    m_collapsed = m_graph ? initialCollapse(m_tree, m_graph->nodes.size()) : std::vector<bool>{};
    for (std::size_t g = 1; g < m_collapsed.size(); ++g)
        if (auto it = wasCollapsed.find(m_tree.groups[g].path); it != wasCollapsed.end())
            m_collapsed[g] = it->second;
    if (showsNeighbourhood()) {
        const auto centre = m_graph ? m_graph->indexOf(m_centre) : std::nullopt;
        m_only = centre ? neighbourhood(*m_graph, *centre, m_hops) : std::vector<bool>{};
        if (!centre)
            emit neighbourhoodChanged();
    }
    rebuildView(); // m_hint stays: unchanged nodes keep their layers and order
}

void GraphScene::showNeighbourhood(std::size_t nodeIndex, int hops)
{
    if (!m_graph || nodeIndex >= m_graph->nodes.size())
        return;
    m_hops = std::max(hops, 0);
    m_centre = m_graph->nodes[nodeIndex].id;
    m_only = neighbourhood(*m_graph, nodeIndex, m_hops);
    rebuildView();
    emit neighbourhoodChanged();
}

void GraphScene::showAll()
{
    if (!showsNeighbourhood())
        return;
    m_only.clear();
    rebuildView();
    emit neighbourhoodChanged();
}

int GraphScene::neighbourhoodCentre() const
{
    const auto centre = showsNeighbourhood() && m_graph ? m_graph->indexOf(m_centre) : std::nullopt;
    return centre ? static_cast<int>(*centre) : -1;
}

void GraphScene::setNeighbourhoodHops(int hops)
{
    if (hops == m_hops)
        return;
    m_hops = std::max(hops, 0);
    if (const int centre = neighbourhoodCentre(); centre >= 0)
        showNeighbourhood(static_cast<std::size_t>(centre), m_hops);
}

void GraphScene::setProblems(std::map<NodeId, std::string> problems)
{
    m_problems = std::move(problems);
    applyProblems();
}

// Problems and diff marks: both are per node id and outlive relayouts.
void GraphScene::applyProblems()
{
    if (!m_graph)
        return;
    for (std::size_t u = 0; u < m_items.size(); ++u) {
        const auto& unit = m_laidOut.units[u];
        QString problem;
        QString fusion;
        if (unit.isGroup) {
            std::size_t count = 0;
            std::size_t missed = 0;
            for (std::size_t node : m_tree.groups[static_cast<std::size_t>(unit.group)].allNodes) {
                count += node < m_graph->nodes.size() && m_problems.count(m_graph->nodes[node].id);
                missed += node < m_graph->nodes.size() && m_fusionHints.count(m_graph->nodes[node].id);
            }
            if (count > 0)
                problem = tr("%n invalid node(s) inside", nullptr, static_cast<int>(count));
            if (missed > 0)
                fusion = tr("%n missed fusion(s) inside", nullptr, static_cast<int>(missed));
        } else if (unit.node < m_graph->nodes.size()) {
            if (auto it = m_problems.find(m_graph->nodes[unit.node].id); it != m_problems.end())
                problem = QString::fromStdString(it->second);
            if (auto it = m_fusionHints.find(m_graph->nodes[unit.node].id); it != m_fusionHints.end())
                fusion = QString::fromStdString(it->second);
        }
        m_items[u]->setProblem(problem);
        m_items[u]->setFusionHint(fusion);
        if (!unit.isGroup && unit.node < m_graph->nodes.size()) {
            const auto mark = m_marks.find(m_graph->nodes[unit.node].id);
            m_items[u]->setMark(mark != m_marks.end() ? mark->second : QColor());
        }
    }
}

void GraphScene::setFusionHints(std::map<NodeId, std::string> hints)
{
    m_fusionHints = std::move(hints);
    applyProblems();
}

void GraphScene::setMarks(std::map<NodeId, QColor> marks)
{
    m_marks = std::move(marks);
    applyProblems();
}

int GraphScene::inputPortCount(const Node& n)
{
    const OpInfo& info = n.op.info();
    if (info.opClass == OpClass::Leaf)
        return 0;
    const int used = static_cast<int>(n.inputs.size());
    return info.maxInputs < 0 || used < info.maxInputs ? used + 1 : used;
}

void GraphScene::setOverlay(const OverlayModel* overlay)
{
    m_overlay = overlay;
    refreshOverlay();
}

void GraphScene::refreshOverlay()
{
    if (!m_graph)
        return;
    for (std::size_t u = 0; u < m_items.size(); ++u) {
        const auto& unit = m_laidOut.units[u];
        NodeItem* item = m_items[u];
        if (unit.isGroup) {
            const auto& grp = m_tree.groups[static_cast<std::size_t>(unit.group)];
            const GroupAggregate a = m_overlay ? m_overlay->aggregate(grp.allNodes) : GroupAggregate{grp.allNodes.size()};
            item->setDetail(aggregateLine(a));
            item->setCost(a.hasCost ? formatNs(a.costNs) : QString());
            const bool on = m_overlay && m_overlay->active() && a.hasCost && m_overlay->mode() != OverlayMode::Dominant;
            item->setHeat(on ? m_overlay->colourForValue(m_overlay->mode() == OverlayMode::IoBytes
                                                             ? static_cast<double>(a.ioBytes)
                                                             : a.costNs)
                             : QColor(),
                          a.syncPoints > 0 ? QStringLiteral("%1 SYNC").arg(a.syncPoints) : QString());
            continue;
        }
        item->setHeat(m_overlay ? m_overlay->colour(unit.node) : QColor(),
                      m_overlay ? m_overlay->badge(unit.node) : QString());
        item->setCost(m_overlay ? m_overlay->costText(unit.node) : QString());
    }
}

void GraphScene::setGroupCollapsed(int group, bool collapsed)
{
    if (group <= 0 || static_cast<std::size_t>(group) >= m_collapsed.size() || m_collapsed[group] == collapsed)
        return;
    m_collapsed[static_cast<std::size_t>(group)] = collapsed;
    m_focusGroup = group;
    if (!collapsed) // opening a group shows its members; their own subgroups open one level at a time
        for (int child : m_tree.groups[static_cast<std::size_t>(group)].children)
            if (m_tree.groups[static_cast<std::size_t>(child)].allNodes.size() > 400)
                m_collapsed[static_cast<std::size_t>(child)] = true;
    rebuildView();
}

bool GraphScene::isGroupCollapsed(int group) const
{
    return group > 0 && static_cast<std::size_t>(group) < m_collapsed.size() && m_collapsed[static_cast<std::size_t>(group)];
}

void GraphScene::toggleGroup(int group) { setGroupCollapsed(group, !isGroupCollapsed(group)); }

// Every level, not only the outermost: opening a group then shows its subgroups as boxes, one level at a time
// (GPT-2 → blocks → attention and MLP), as Model Explorer does.
void GraphScene::collapseAll()
{
    for (std::size_t g = 1; g < m_tree.groups.size(); ++g)
        m_collapsed[g] = true;
    rebuildView();
}

void GraphScene::expandGroupFully(int group)
{
    if (group <= 0 || static_cast<std::size_t>(group) >= m_tree.groups.size())
        return;
    for (std::size_t g = 1; g < m_tree.groups.size(); ++g)
        for (int a = static_cast<int>(g); a > 0; a = m_tree.groups[static_cast<std::size_t>(a)].parent)
            if (a == group) {
                m_collapsed[g] = false;
                break;
            }
    m_focusGroup = group;
    rebuildView();
}

void GraphScene::expandAll()
{
    std::fill(m_collapsed.begin(), m_collapsed.end(), false);
    rebuildView();
}

std::vector<std::string> GraphScene::collapsedGroups() const
{
    std::vector<std::string> paths;
    for (std::size_t g = 1; g < m_collapsed.size() && g < m_tree.groups.size(); ++g)
        if (m_collapsed[g])
            paths.push_back(m_tree.groups[g].path);
    return paths;
}

void GraphScene::setCollapsedGroups(const std::vector<std::string>& paths)
{
    const std::set<std::string> wanted(paths.begin(), paths.end());
    for (std::size_t g = 1; g < m_collapsed.size() && g < m_tree.groups.size(); ++g)
        m_collapsed[g] = wanted.count(m_tree.groups[g].path) > 0;
    // Laid out afresh, not from the last layout: a restored document's boxes land where they were saved, whatever
    // was shown before.
    m_hint.reset();
    rebuildView();
}

void GraphScene::setShowParams(bool show)
{
    if (show == m_showParams)
        return;
    m_showParams = show;
    rebuildView();
}

void GraphScene::setDirection(layout::Direction d)
{
    if (d == m_direction)
        return;
    m_direction = d;
    m_hint.reset(); // layers stay, but positions across them mean something else now
    rebuildView();
}

void GraphScene::setFoldSize(QSizeF pixels)
{
    if (pixels.width() < 1 || pixels.height() < 1 || pixels == m_foldSize)
        return;
    m_foldSize = pixels;
    // A few pixels either way (a scroll bar) change no fold worth a new layout.
    const bool same = std::abs(pixels.width() - m_laidOutFoldSize.width()) <= 0.02 * pixels.width()
                      && std::abs(pixels.height() - m_laidOutFoldSize.height()) <= 0.02 * pixels.height();
    if (m_graph && !same)
        m_refold->start();
    else
        m_refold->stop();
}

void GraphScene::rebuildView()
{
    m_refold->stop();
    if (!m_graph) {
        clear();
        m_items.clear();
        return;
    }
    m_view = showsNeighbourhood() ? ViewGraph::build(*m_graph, m_tree, {}, m_showParams, &m_only)
                                  : ViewGraph::build(*m_graph, m_tree, m_collapsed, m_showParams);
    layout::LayoutInput in;
    in.direction = m_direction;
    // A long graph folds into columns that fit the view's shape, so that it reads when fitted.
    in.wrapWidth = m_foldSize.width();
    in.wrapHeight = m_foldSize.height();
    in.wrapMargin = kSceneMargin;
    m_laidOutFoldSize = m_foldSize;
    in.nodes.reserve(m_view.units.size());
    for (const auto& unit : m_view.units) {
        const auto content = unit.isGroup
                                 ? groupContent(m_tree.groups[static_cast<std::size_t>(unit.group)],
                                                GroupAggregate{m_tree.groups[static_cast<std::size_t>(unit.group)].allNodes.size()})
                                 : nodeContent(*m_graph, unit.node);
        const QSizeF size = NodeItem::preferredSize(content);
        in.nodes.push_back({size.width(), unit.isGroup ? size.height() + 6 : size.height(), unit.key});
    }
    for (const auto& e : m_view.edges)
        in.edges.push_back({e.from, e.to});
    m_job->start(std::move(in), m_hint);
}

void GraphScene::applyLayout(std::shared_ptr<const layout::LayoutResult> result)
{
    // The selection by id and by group path: positions are those of the graph laid out before, which an edit shifted.
    const std::vector<NodeId> selectedIds = selectedNodeIds();
    std::vector<std::string> selectedGroups;
    for (QGraphicsItem* it : selectedItems())
        if (it->type() == NodeItem::Type)
            if (const auto& unit = m_laidOut.units[static_cast<std::size_t>(static_cast<NodeItem*>(it)->unit())];
                unit.isGroup && static_cast<std::size_t>(unit.group) < m_laidOutTree.groups.size())
                selectedGroups.push_back(m_laidOutTree.groups[static_cast<std::size_t>(unit.group)].path);
    blockSignals(true);
    clear();
    m_items.clear();
    m_laidOut = m_view;
    m_laidOutGraph = m_graph;
    m_laidOutTree = m_tree;
    m_hint = std::make_shared<const layout::LayoutHint>(result->hint());
    m_items.reserve(m_laidOut.units.size());
    for (std::size_t u = 0; u < m_laidOut.units.size(); ++u) {
        const auto& unit = m_laidOut.units[u];
        const auto& grp = m_tree.groups[static_cast<std::size_t>(std::max(unit.group, 0))];
        auto content = unit.isGroup ? groupContent(grp, GroupAggregate{grp.allNodes.size()}) : nodeContent(*m_graph, unit.node);
        QSizeF size = NodeItem::preferredSize(content);
        auto* item = new NodeItem(static_cast<int>(u), std::move(content), size);
        item->setPos(result->centers[u].x, result->centers[u].y);
        item->setToolTip(unit.isGroup ? QString::fromStdString(grp.path)
                                      : QString::fromStdString(m_graph->nodes[unit.node].op.label()));
        if (!unit.isGroup)
            item->setPorts(inputPortCount(m_graph->nodes[unit.node]), m_direction == layout::Direction::LeftToRight);
        addItem(item);
        m_items.push_back(item);
    }
    if (!showsNeighbourhood()) { // a neighbourhood shows nodes without their groups
        std::vector<QRectF> rects;
        rects.reserve(m_items.size());
        for (const NodeItem* item : m_items)
            rects.push_back(item->sceneBoundingRect());
        for (GroupFrame& frame :
             groupFrames(m_tree, m_laidOut, m_collapsed, rects, result->columns, result->layers, m_direction))
            addItem(new GroupFrameItem(std::move(frame)));
    }
    for (std::size_t e = 0; e < m_laidOut.edges.size(); ++e) {
        const auto& edge = m_laidOut.edges[e];
        QPolygonF route;
        for (const auto& p : result->routes[e])
            route << QPointF(p.x, p.y);
        auto* item = new EdgeItem(route, edge.from, edge.to);
        item->setToolTip(edgeTooltip(*m_graph, edge.sourceNode, edge.multiplicity));
        addItem(item);
    }
    // Group frames may reach past the drawing's margin (nested ones add their padding).
    setSceneRect(
        QRectF(-kSceneMargin, -kSceneMargin, result->width + 2 * kSceneMargin, result->height + 2 * kSceneMargin)
            .united(itemsBoundingRect().adjusted(-20, -20, 20, 20)));
    refreshOverlay();
    applyProblems();
    m_dragLine = nullptr; // clear() deleted it
    m_dragFrom.reset();
    blockSignals(false);
    // The views follow the scene's rect through this signal, which was blocked while it changed: without it a view
    // kept the previous graph's rect, and a fitted graph that needs no scroll range was drawn off-centre.
    emit sceneRectChanged(sceneRect());
    bool reselected = false;
    for (NodeId id : selectedIds)
        if (const auto index = m_graph->indexOf(id))
            if (NodeItem* item = itemForNode(*index);
                item && !m_laidOut.units[static_cast<std::size_t>(item->unit())].isGroup) {
                item->setSelected(true);
                reselected = true;
            }
    for (const std::string& path : selectedGroups)
        if (const int group = m_tree.find(path); group > 0)
            for (std::size_t u = 0; u < m_laidOut.units.size(); ++u)
                if (m_laidOut.units[u].isGroup && m_laidOut.units[u].group == group) {
                    m_items[u]->setSelected(true);
                    reselected = true;
                }
    if (!reselected && (!selectedIds.empty() || !selectedGroups.empty()))
        emit nodeSelected(std::nullopt); // what was selected is gone: the panels showing it are told
    if (m_focusGroup > 0 && static_cast<std::size_t>(m_focusGroup) < m_tree.groups.size()) {
        // Its part in the column of its first box: a group that goes on in the next column of a folded drawing
        // spans the drawing's height, and showing that rect's top showed the column before it.
        QRectF where;
        int column = -1;
        for (std::size_t i : m_tree.groups[static_cast<std::size_t>(m_focusGroup)].allNodes)
            if (const NodeItem* item = itemForNode(i)) {
                const auto unit = static_cast<std::size_t>(item->unit());
                const int itsColumn = unit < result->columns.size() ? result->columns[unit] : 0;
                if (column < 0)
                    column = itsColumn;
                if (itsColumn == column)
                    where = where.united(item->sceneBoundingRect());
            }
        if (!where.isEmpty())
            emit focusRequested(where);
    }
    m_focusGroup = -1;
    if (std::exchange(m_refolding, false))
        emit refolded();
    emit layoutFinished();
}

NodeItem* GraphScene::itemForUnit(int unit) const
{
    return unit >= 0 && static_cast<std::size_t>(unit) < m_items.size() ? m_items[static_cast<std::size_t>(unit)] : nullptr;
}

NodeItem* GraphScene::itemForNode(std::size_t nodeIndex) const
{
    if (nodeIndex >= m_laidOut.unitOfNode.size())
        return nullptr;
    return itemForUnit(m_laidOut.unitOfNode[nodeIndex]);
}

bool GraphScene::selectNode(std::size_t nodeIndex)
{
    NodeItem* item = itemForNode(nodeIndex);
    if (!item)
        return false;
    if (item->isSelected() && selectedItems().size() == 1)
        return true;
    blockSignals(true);
    clearSelection();
    blockSignals(false);
    item->setSelected(true);
    return true;
}

int GraphScene::selectedNode() const
{
    for (QGraphicsItem* it : selectedItems())
        if (it->type() == NodeItem::Type) {
            const auto& unit = m_laidOut.units[static_cast<std::size_t>(static_cast<NodeItem*>(it)->unit())];
            return unit.isGroup ? -1 : static_cast<int>(unit.node);
        }
    return -1;
}

int GraphScene::selectedGroup() const
{
    for (QGraphicsItem* it : selectedItems())
        if (it->type() == NodeItem::Type) {
            const auto& unit = m_laidOut.units[static_cast<std::size_t>(static_cast<NodeItem*>(it)->unit())];
            return unit.isGroup ? unit.group : -1;
        }
    return -1;
}

std::vector<std::size_t> GraphScene::selectedNodes() const
{
    std::vector<std::size_t> nodes;
    for (QGraphicsItem* it : selectedItems()) {
        if (it->type() != NodeItem::Type)
            continue;
        const auto& unit = m_laidOut.units[static_cast<std::size_t>(static_cast<NodeItem*>(it)->unit())];
        if (unit.isGroup) {
            const auto& all = m_laidOutTree.groups[static_cast<std::size_t>(unit.group)].allNodes;
            nodes.insert(nodes.end(), all.begin(), all.end());
        } else {
            nodes.push_back(unit.node);
        }
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

std::vector<NodeId> GraphScene::selectedNodeIds() const
{
    std::vector<NodeId> ids;
    if (!m_laidOutGraph)
        return ids;
    for (std::size_t node : selectedNodes())
        if (node < m_laidOutGraph->nodes.size())
            ids.push_back(m_laidOutGraph->nodes[node].id);
    return ids;
}

bool GraphScene::selectNodeId(NodeId id)
{
    // Positions of the graph on show: the one laid out (a newer one is still being laid out).
    const auto index = m_laidOutGraph ? m_laidOutGraph->indexOf(id) : std::nullopt;
    return index && selectNode(*index);
}

NodeItem* GraphScene::itemForNodeId(NodeId id) const
{
    const auto index = m_laidOutGraph ? m_laidOutGraph->indexOf(id) : std::nullopt;
    return index ? itemForNode(*index) : nullptr;
}

std::optional<NodeId> GraphScene::selectedNodeId() const
{
    const int node = selectedNode();
    if (node < 0 || !m_laidOutGraph || static_cast<std::size_t>(node) >= m_laidOutGraph->nodes.size())
        return std::nullopt;
    return m_laidOutGraph->nodes[static_cast<std::size_t>(node)].id;
}

std::optional<NodeId> GraphScene::idOfUnit(int unit) const
{
    if (unit < 0 || static_cast<std::size_t>(unit) >= m_laidOut.units.size() || !m_laidOutGraph)
        return std::nullopt;
    const auto& u = m_laidOut.units[static_cast<std::size_t>(unit)];
    if (u.isGroup || u.node >= m_laidOutGraph->nodes.size())
        return std::nullopt;
    return m_laidOutGraph->nodes[u.node].id;
}

std::vector<std::pair<NodeId, NodeId>> GraphScene::selectedEdges() const
{
    std::vector<std::pair<NodeId, NodeId>> edges;
    for (QGraphicsItem* it : selectedItems()) {
        if (it->type() != EdgeItem::Type)
            continue;
        const auto* edge = static_cast<EdgeItem*>(it);
        const auto from = idOfUnit(edge->sourceUnit());
        const auto to = idOfUnit(edge->targetUnit());
        if (from && to)
            edges.emplace_back(*from, *to);
    }
    return edges;
}

NodeItem* GraphScene::nodeItemAt(QPointF scenePos) const
{
    for (QGraphicsItem* it : items(scenePos))
        if (it->type() == NodeItem::Type && !m_laidOut.units[static_cast<std::size_t>(static_cast<NodeItem*>(it)->unit())].isGroup)
            return static_cast<NodeItem*>(it);
    return nullptr;
}

std::optional<NodeId> GraphScene::nodeAt(QPointF scenePos) const
{
    const NodeItem* item = nodeItemAt(scenePos);
    return item ? idOfUnit(item->unit()) : std::nullopt;
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    NodeItem* item = event->button() == Qt::LeftButton ? nodeItemAt(event->scenePos()) : nullptr;
    if (item && item->isOnOutputPort(item->mapFromScene(event->scenePos()))) {
        m_dragFrom = idOfUnit(item->unit());
        const QPointF start = item->mapToScene(item->outputPortPos());
        m_dragLine = addLine(QLineF(start, event->scenePos()), QPen(QColor(0x1e, 0x6f, 0xd9), 2, Qt::DashLine));
        m_dragLine->setZValue(10);
        event->accept();
        return;
    }
    QGraphicsScene::mousePressEvent(event);
}

void GraphScene::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    if (m_dragLine) {
        QLineF line = m_dragLine->line();
        line.setP2(event->scenePos());
        m_dragLine->setLine(line);
        event->accept();
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
}

void GraphScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    if (!m_dragLine) {
        QGraphicsScene::mouseReleaseEvent(event);
        return;
    }
    delete m_dragLine;
    m_dragLine = nullptr;
    const std::optional<NodeId> from = std::exchange(m_dragFrom, std::nullopt);
    NodeItem* target = nodeItemAt(event->scenePos());
    event->accept();
    if (!target || target->inputPortCount() == 0)
        return;
    const std::optional<NodeId> to = idOfUnit(target->unit());
    if (from && to && *to != *from)
        emit connectRequested(*from, *to, target->nearestInputPort(target->mapFromScene(event->scenePos())));
}

void GraphScene::onSelectionChanged()
{
    for (QGraphicsItem* it : selectedItems())
        if (it->type() == NodeItem::Type) {
            const auto& unit = m_laidOut.units[static_cast<std::size_t>(static_cast<NodeItem*>(it)->unit())];
            if (unit.isGroup)
                emit groupSelected(unit.group);
            emit nodeSelected(idOfUnit(static_cast<NodeItem*>(it)->unit()));
            return;
        }
    emit nodeSelected(std::nullopt);
}

int GraphScene::innermostGroupOf(const NodeItem* item) const
{
    const auto& unit = m_laidOut.units[static_cast<std::size_t>(item->unit())];
    return unit.isGroup ? unit.group : m_tree.groupOfNode[unit.node];
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    // The topmost box or frame: an edge that runs over a frame's label does not take the click.
    QGraphicsItem* it = nullptr;
    for (QGraphicsItem* under : items(event->scenePos()))
        if (under->type() == NodeItem::Type || under->type() == GroupFrameItem::Type) {
            it = under;
            break;
        }
    if (it && it->type() == GroupFrameItem::Type) { // double-clicking an open group's frame closes it
        setGroupCollapsed(static_cast<GroupFrameItem*>(it)->frame().group, true);
        event->accept();
        return;
    }
    if (it && it->type() == NodeItem::Type && !showsNeighbourhood()) {
        const int group = innermostGroupOf(static_cast<NodeItem*>(it));
        if (group > 0) {
            toggleGroup(group);
            event->accept();
            return;
        }
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

void GraphScene::contextMenuEvent(QGraphicsSceneContextMenuEvent* event)
{
    QGraphicsItem* it = itemAt(event->scenePos(), QTransform());
    if (it && it->type() == GroupFrameItem::Type) {
        const int group = static_cast<GroupFrameItem*>(it)->frame().group;
        QMenu menu;
        menu.addAction(
            tr("Collapse group %1").arg(QString::fromStdString(m_tree.groups[static_cast<std::size_t>(group)].path)),
            this, [this, group] { setGroupCollapsed(group, true); });
        menu.exec(event->screenPos());
        return;
    }
    if (!it || it->type() != NodeItem::Type)
        return;
    QMenu menu;
    const auto& unit = m_laidOut.units[static_cast<std::size_t>(static_cast<NodeItem*>(it)->unit())];
    if (!unit.isGroup) {
        if (!it->isSelected()) {
            clearSelection();
            it->setSelected(true);
        }
        if (const auto id = idOfUnit(static_cast<NodeItem*>(it)->unit()))
            emit nodeContextMenu(*id, &menu);
        if (!menu.isEmpty())
            menu.addSeparator();
        menu.addAction(m_hops == 1 ? tr("Show neighbourhood (1 hop)") : tr("Show neighbourhood (%1 hops)").arg(m_hops),
                       this, [this, node = unit.node] { showNeighbourhood(node, m_hops); });
    }
    if (showsNeighbourhood()) { // groups do not apply to a neighbourhood view
        menu.addAction(tr("Show all"), this, [this] { showAll(); });
        menu.exec(event->screenPos());
        return;
    }
    const int group = innermostGroupOf(static_cast<NodeItem*>(it));
    if (isGroupCollapsed(group)) {
        const QString path = QString::fromStdString(m_tree.groups[static_cast<std::size_t>(group)].path);
        menu.addAction(tr("Expand group %1").arg(path), this, [this, group] { setGroupCollapsed(group, false); });
        if (!m_tree.groups[static_cast<std::size_t>(group)].children.empty())
            menu.addAction(tr("Expand group %1 fully").arg(path), this, [this, group] { expandGroupFully(group); });
    }
    for (int g = isGroupCollapsed(group) ? m_tree.groups[static_cast<std::size_t>(group)].parent : group; g > 0;
         g = m_tree.groups[static_cast<std::size_t>(g)].parent)
        menu.addAction(tr("Collapse group %1").arg(QString::fromStdString(m_tree.groups[static_cast<std::size_t>(g)].path)),
                       this, [this, g] { setGroupCollapsed(g, true); });
    if (!menu.isEmpty())
        menu.exec(event->screenPos());
}

} // namespace costscope
