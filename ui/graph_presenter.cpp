// SPDX-License-Identifier: MIT
#include "graph_presenter.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/legend_widget.h"
#include "canvas/minimap.h"
#include "canvas/node_item.h"
#include "edit/graph_edits.h"
#include "jobs/device_costs.h"
#include "panels/device_cost_table.h"
#include "panels/node_table_model.h"
#include "panels/node_table_panel.h"
#include "panels/property_panel.h"
#include "panels/search_bar.h"
#include "panels/summary_panel.h"
#include <QDockWidget>
#include <QStatusBar>

namespace costscope {

GraphPresenter::GraphPresenter(GraphViews views, AnalysisSettingsOwner* settings, QObject* parent)
    : QObject(parent), m_views(views), m_feed(new OpenGraphFeed(m_overlay, settings, this))
{
    m_views.scene->setOverlay(&m_overlay);
    m_views.legend->setOverlay(&m_overlay);
    connect(m_feed, &OpenGraphFeed::selectNodeRequested, this, &GraphPresenter::selectNode);
    connect(m_feed, &OpenGraphFeed::showMeasuredRequested, this, &GraphPresenter::showMeasured);
    connect(m_views.scene, &GraphScene::nodeSelected, this, &GraphPresenter::onCanvasSelection);
    connect(m_views.table, &NodeTablePanel::nodeSelected, this, &GraphPresenter::onTableSelection);
    connect(m_views.search, &SearchBar::nodeFound, this, [this](NodeId id) {
        onTableSelection(id);
        onCanvasSelection(id);
    });
    connect(m_views.scene, &GraphScene::focusRequested, m_views.canvas, &CanvasView::showSceneRect);
    // The drawing folds into the canvas's shape; a view that showed it all shows it all again once refolded.
    connect(m_views.canvas, &CanvasView::viewportResized, m_views.scene, &GraphScene::setFoldSize);
    connect(m_views.scene, &GraphScene::refolded, this, [this] {
        if (m_views.canvas->isFitted())
            m_fitOnLayout = true;
    });
    connect(m_views.scene, &GraphScene::layoutFinished, this, [this] {
        if (m_fitOnLayout) {
            m_views.canvas->fitAll();
            m_fitOnLayout = false;
        }
        m_views.canvas->minimap()->refit();
        m_views.status->showMessage(tr("%1 nodes, %2 boxes shown")
                                        .arg(m_graph ? m_graph->nodes.size() : 0)
                                        .arg(m_views.scene->visibleNodeItemCount()));
        emit layoutReady();
    });
}

void GraphPresenter::showGraph(std::shared_ptr<const Graph> graph, bool fresh)
{
    m_graph = std::move(graph);
    m_overlay.setGraph(m_graph);
    m_overlay.setCost(nullptr);
    m_views.tableModel->setGraph(m_graph);
    m_views.search->setGraph(m_graph.get());
    std::map<NodeId, std::string> problems;
    if (m_graph)
        for (const edit::NodeProblem& p : edit::graphProblems(*m_graph))
            problems.emplace(p.id, p.message); // the first problem of a node is the one to fix first
    m_views.scene->setProblems(std::move(problems));
    m_views.properties->showNode(nullptr, std::nullopt, nullptr);
    m_views.summary->showSummary(m_graph.get(), nullptr);
    if (fresh) {
        m_fitOnLayout = true;
        m_savedView = false;
        m_views.scene->setGraph(m_graph);
    } else {
        m_views.scene->updateGraph(m_graph);
    }
    m_views.legend->refresh();
    emit m_feed->graphChanged();
}

void GraphPresenter::showCosts(std::shared_ptr<const GraphCost> cost)
{
    m_overlay.setCost(cost);
    m_views.tableModel->setCost(cost);
    m_views.scene->refreshOverlay();
    m_views.legend->refresh();
    m_views.summary->showSummary(m_graph.get(), cost.get());
    showNode(m_views.scene->selectedNodeId());
    emit m_feed->costsUpdated();
}

void GraphPresenter::showMeasured(const std::shared_ptr<const Graph>& graph,
                                  std::vector<std::optional<double>> nsByNode)
{
    m_overlay.setMeasured(graph, std::move(nsByNode));
    refreshOverlay();
    emit m_feed->measuredChanged();
}

void GraphPresenter::refreshOverlay()
{
    m_views.scene->refreshOverlay();
    m_views.legend->refresh();
}

void GraphPresenter::setDeviceCosts(std::shared_ptr<const DeviceCosts> costs)
{
    m_deviceCosts = std::move(costs);
}

void GraphPresenter::selectNode(NodeId id)
{
    onTableSelection(id);
    onCanvasSelection(id);
    m_views.canvas->reveal(m_views.scene->itemForNodeId(id));
}

std::vector<NodeId> GraphPresenter::selectedNodeIds() const
{
    return m_views.scene->selectedNodeIds();
}

void GraphPresenter::onCanvasSelection(std::optional<NodeId> id)
{
    if (m_syncingSelection)
        return;
    m_syncingSelection = true;
    m_views.table->selectNode(id);
    showNode(id);
    m_syncingSelection = false;
}

void GraphPresenter::onTableSelection(NodeId id)
{
    if (m_syncingSelection)
        return;
    m_syncingSelection = true;
    if (m_views.scene->selectNodeId(id))
        if (auto* item = m_views.scene->itemForNodeId(id))
            m_views.canvas->centerOn(item);
    showNode(id);
    m_syncingSelection = false;
}

void GraphPresenter::showNode(std::optional<NodeId> id)
{
    GraphScene* scene = m_views.scene;
    QString problem;
    if (id)
        if (auto it = scene->problems().find(*id); it != scene->problems().end())
            problem = QString::fromStdString(it->second);
    if (const int group = scene->selectedGroup(); !id && group >= 0 && m_graph)
        m_views.properties->showGroup(*m_graph, scene->groups(), group, m_overlay.cost());
    else
        m_views.properties->showNode(m_graph.get(), id, m_overlay.cost(), problem);
    m_views.deviceTable->showNode(m_graph.get(), m_deviceCosts.get(), id);
    if (id || scene->selectedGroup() >= 0)
        m_views.propertiesDock->raise();
}

} // namespace costscope
