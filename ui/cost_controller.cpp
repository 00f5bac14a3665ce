// SPDX-License-Identifier: MIT
#include "cost_controller.h"
#include "analysis_controls.h"
#include "analysis_settings_owner.h"
#include "canvas/graph_scene.h"
#include "device_selector.h"
#include "edit/precision_transform.h"
#include "graph_presenter.h"
#include "jobs/batched_graph.h"
#include "jobs/device_costs.h"
#include "panels/cost_summary_bar.h"
#include "panels/device_cost_table.h"
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

namespace costscope {

CostController::CostController(AnalysisSettingsOwner* settings, GraphPresenter* presenter, AnalysisControls* controls,
                               QMainWindow* window)
    : QObject(window), m_settings(settings), m_presenter(presenter), m_controls(controls), m_window(window)
{
    m_costBar = new CostSummaryBar(window);
    m_costBarToolBar = new QToolBar(tr("Cost summary"), window);
    m_costBarToolBar->setObjectName(QStringLiteral("costSummaryToolBar"));
    m_costBarToolBar->setMovable(false);
    m_costBarToolBar->addWidget(m_costBar);
    window->addToolBar(Qt::BottomToolBarArea, m_costBarToolBar);
    m_jumpCostliest = new QAction(tr("&Jump to Next Costliest Node"), this);
    m_jumpCostliest->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_J));
    m_jumpCostliest->setObjectName(QStringLiteral("actionJumpCostliest"));
    m_jumpCostliest->setToolTip(tr("Cycle through the %1 costliest nodes on the current device").arg(kCostliestCount));
    connect(m_jumpCostliest, &QAction::triggered, this, &CostController::jumpToNextCostliest);
    controls->toolBar()->addAction(m_jumpCostliest);

    DeviceCostTable* deviceTable = presenter->views().deviceTable;
    m_costBar->setRlxVersion(settings->value().rlxVersion);
    deviceTable->setRlxVersion(settings->value().rlxVersion);
    connect(controls->rlxVersionSelector(), &QComboBox::currentIndexChanged, this, [this, deviceTable] {
        m_costBar->setRlxVersion(m_settings->value().rlxVersion);
        deviceTable->setRlxVersion(m_settings->value().rlxVersion);
        showDeviceCosts();
    });
    connect(settings, &AnalysisSettingsOwner::changed, this, &CostController::requestCosts);
    connect(presenter->feed(), &OpenGraphFeed::graphChanged, this, [this] {
        resetForGraph();
        requestCosts();
    });
    connect(presenter->feed(), &OpenGraphFeed::profilesChanged, this, &CostController::reloadProfiles);
}

void CostController::addAnalysisMenu(QDockWidget* bindingsDock)
{
    QMenuBar* menus = m_window->menuBar();
    QMenu* analysis = new QMenu(tr("&Analysis"), m_window);
    menus->insertMenu(menus->actions().constLast(), analysis);
    analysis->addAction(m_jumpCostliest);
    analysis->addSeparator();
    analysis->addAction(bindingsDock->toggleViewAction());
    analysis->addAction(m_costBarToolBar->toggleViewAction());
}

void CostController::setCostProvider(CostProvider provider)
{
    m_costProvider = std::move(provider);
    requestCosts();
}

void CostController::resetForGraph()
{
    m_controls->showSymbolsOf(m_presenter->graph().get());
    m_presenter->setDeviceCosts(nullptr);
    m_deviceCostsJob.drop();
    m_costliestFor = nullptr;
    m_costBar->showCosts(nullptr, {});
    m_presenter->views().deviceTable->showNode(nullptr, nullptr, std::nullopt);
}

void CostController::requestCosts()
{
    const auto graph = m_presenter->graph();
    if (!graph || !m_costProvider)
        return;
    const AnalysisSettings& settings = m_settings->value();
    const std::string model = settings.model;
    const std::string device = settings.device;
    const Bindings bindings = settings.bindings;
    BatchedGraph batched = graphAtBatch(graph, bindings.at("batch"));
    m_controls->showBatchNote(QString::fromStdString(batched.note), batched.pinned);
    batched.graph = atPrecision(batched.graph);
    m_costJob.drop(); // the toolbar moved on: an answer under way is stale
    auto deviceCosts = m_presenter->deviceCosts();
    if (deviceCosts && deviceCosts->precision != settings.precision) {
        deviceCosts.reset(); // priced at another precision: no view shows them while the new ones come
        m_presenter->setDeviceCosts(nullptr);
    }
    if (deviceCosts && deviceCosts->matches(model, bindings, settings.precision)) {
        // Every device is costed already: a device switch only recolours.
        if (auto cost = deviceCosts->find(device)) {
            m_presenter->showCosts(std::move(cost));
            m_costBar->showCosts(deviceCosts.get(), m_controls->deviceSelector()->currentText());
            return;
        }
    } else {
        requestDeviceCosts(batched.graph, model, bindings, settings.precision);
    }
    // The current device alone comes back sooner than all of them: it colours the canvas meanwhile.
    m_costJob.start([graph = batched.graph, provider = m_costProvider,
                     request = CostRequest{model, device, bindings}] { return provider(*graph, request); },
                    [this](std::shared_ptr<const GraphCost> cost) { m_presenter->showCosts(std::move(cost)); });
}

void CostController::requestDeviceCosts(std::shared_ptr<const Graph> graph, const std::string& model,
                                        const Bindings& bindings, const std::string& precision)
{
    std::vector<std::string> devices;
    for (const QString& name : deviceNamesOf(m_controls->deviceSelector()))
        devices.push_back(name.toStdString());
    m_deviceCostsJob.start(
        [graph = std::move(graph), provider = m_costProvider, model, bindings, precision, devices] {
            DeviceCosts costs = computeDeviceCosts(*graph, provider, model, devices, bindings);
            costs.precision = precision;
            return std::make_shared<const DeviceCosts>(std::move(costs));
        },
        [this](std::shared_ptr<const DeviceCosts> costs) { applyDeviceCosts(std::move(costs)); });
}

void CostController::applyDeviceCosts(std::shared_ptr<const DeviceCosts> costs)
{
    m_presenter->setDeviceCosts(costs);
    const std::string device = m_controls->deviceSelector()->currentText().toStdString();
    if (auto cost = costs->find(device); cost && m_costJob.pending()) {
        m_costJob.drop(); // the single-device answer still under way is no longer needed
        m_presenter->showCosts(std::move(cost));
    }
    showDeviceCosts();
    emit deviceCostsUpdated();
}

void CostController::showDeviceCosts()
{
    const DeviceCosts* costs = m_presenter->deviceCosts().get();
    m_costBar->showCosts(costs, m_controls->deviceSelector()->currentText());
    m_presenter->views().deviceTable->showNode(m_presenter->graph().get(), costs,
                                               m_presenter->views().scene->selectedNodeId());
}

std::shared_ptr<const Graph> CostController::atPrecision(std::shared_ptr<const Graph> graph)
{
    const Precision p = m_settings->value().whatIfPrecision();
    if (!graph || p == Precision::Fp32)
        return graph;
    auto retyped = edit::withPrecision(*graph, p);
    if (!retyped) {
        m_window->statusBar()->showMessage(tr("Precision %1: %2")
                                               .arg(QString::fromUtf8(precisionName(p).data()),
                                                    QString::fromStdString(retyped.error().format(graph->name))),
                                           15000);
        return graph;
    }
    return std::make_shared<const Graph>(std::move(*retyped));
}

void CostController::reloadProfiles()
{
    reloadProfileLibrary();
    fillDeviceSelector(m_controls->deviceSelector());
    m_presenter->setDeviceCosts(nullptr); // a profile fitted again prices differently
    requestCosts();
}

void CostController::jumpToNextCostliest()
{
    const GraphCost* cost = m_presenter->overlay().cost();
    if (!cost)
        return;
    if (cost != m_costliestFor) {
        m_costliest = costliestNodes(*cost, kCostliestCount);
        m_costliestFor = cost;
        m_costliestCursor = 0;
    }
    if (m_costliest.empty())
        return;
    const std::size_t rank = m_costliestCursor;
    const auto graph = m_presenter->graph();
    if (!graph || m_costliest[rank] >= graph->nodes.size())
        return;
    const Node& node = graph->nodes[m_costliest[rank]]; // the cost is of the graph on show (showGraph resets it)
    m_costliestCursor = (m_costliestCursor + 1) % m_costliest.size();
    m_presenter->selectNode(node.id);
    m_window->statusBar()->showMessage(tr("Costliest #%1 of %2: %3")
                                           .arg(rank + 1)
                                           .arg(m_costliest.size())
                                           .arg(QString::fromStdString(node.displayName())));
}

} // namespace costscope
