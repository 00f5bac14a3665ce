// SPDX-License-Identifier: MIT
#include "main_window.h"
#include "canvas/canvas_view.h"
#include "canvas/fusion_badges.h"
#include "canvas/graph_scene.h"
#include "canvas/legend_widget.h"
#include "canvas/minimap.h"
#include "canvas/neighbourhood_bar.h"
#include "canvas/node_item.h"
#include "charts/icicle_chart.h"
#include "charts/roofline_chart.h"
#include "charts/sweep_dock.h"
#include "dock_layout.h"
#include "edit/autosaver.h"
#include "edit/graph_document.h"
#include "edit/graph_edits.h"
#include "first_contact.h"
#include "formats/costscope_document.h"
#include "formats/graph_file.h"
#include "jobs/batched_graph.h"
#include "jobs/load_job.h"
#include "panels/device_cost_table.h"
#include "panels/node_table_model.h"
#include "panels/node_table_panel.h"
#include "panels/property_panel.h"
#include "panels/run_panel.h"
#include "panels/search_bar.h"
#include "panels/summary_panel.h"
#include "panels/top_nodes_panel.h"
#include "resources_init.h"
#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>

namespace costscope {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_scene(new GraphScene(this)), m_canvas(new CanvasView(m_scene, this)),
      m_tableModel(new NodeTableModel(this)), m_loader(new LoadJob(this))
{
    initResources();
    setWindowTitle(QStringLiteral("Costscope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/costscope.svg")));
    setAcceptDrops(true);
    setCentralWidget(m_canvas);
    m_scene->setOverlay(&m_overlay);
    connect(m_feed, &OpenGraphFeed::selectNodeRequested, this, &MainWindow::selectNode);
    connect(m_feed, &OpenGraphFeed::showMeasuredRequested, this, &MainWindow::showMeasured);
    connect(m_feed, &OpenGraphFeed::profilesChanged, this, &MainWindow::reloadProfiles);
    m_reportError = [this](const QString& title, const QString& message) {
        auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("loadErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open(); // window-modal but non-blocking: the event loop (and tests) keep running
    };

    buildDocks();
    buildToolBar();
    buildMenus();
    buildAnalysisTools();
    installSweepDock(this, m_feed, m_scene, m_bindings);
    buildEditing();
    installFirstContact(this);
    installFusionBadges(this);
    installNeighbourhoodView(this);
    installIcicleDock(this, m_feed);
    statusBar()->showMessage(tr("Open a graph: File → Open, or drop a file here"));

    connect(m_loader, &LoadJob::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &LoadJob::sessionLoaded, this,
            [this](const QString&, std::shared_ptr<const CostscopeDocument> session) { applySession(*session); });
    connect(m_loader, &LoadJob::failed, this, &MainWindow::onLoadFailed);
    connect(m_scene, &GraphScene::nodeSelected, this, &MainWindow::onCanvasSelection);
    connect(m_canvas, &CanvasView::fileDropped, this, [this](const QString& path) { openFile(path); });
    connect(m_scene, &GraphScene::focusRequested, m_canvas, &CanvasView::showSceneRect);
    connect(m_scene, &GraphScene::layoutFinished, this, [this] {
        if (m_fitOnLayout) {
            m_canvas->fitAll();
            m_fitOnLayout = false;
        }
        m_canvas->minimap()->refit();
        statusBar()->showMessage(tr("%1 nodes, %2 boxes shown").arg(m_graph ? m_graph->nodes.size() : 0)
                                     .arg(m_scene->visibleNodeItemCount()));
        emit layoutReady();
    });

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        applyDefaultDockLayout(this);
    restoreViewSettings(settings);
}

// What the user chose to look at survives a restart: model, device, batch, overlay and the View menu's toggles.
void MainWindow::restoreViewSettings(const QSettings& settings)
{
    auto restoreText = [&](QComboBox* box, const char* key) {
        const int i = box->findText(settings.value(QLatin1String(key)).toString());
        if (i >= 0)
            box->setCurrentIndex(i);
    };
    restoreText(m_model, "view/model");
    restoreText(m_device, "view/device");
    restoreText(m_overlayMode, "view/overlay");
    if (settings.contains(QStringLiteral("view/batch")))
        m_batch->setValue(settings.value(QStringLiteral("view/batch")).toInt());
    for (const char* name : {"actionShowParams", "actionLeftToRight", "actionMinimap", "actionAbsoluteHeat"})
        if (auto* action = findChild<QAction*>(QLatin1String(name));
            action && settings.contains(QStringLiteral("view/") + QLatin1String(name)))
            action->setChecked(settings.value(QStringLiteral("view/") + QLatin1String(name)).toBool());
}

void MainWindow::saveViewSettings(QSettings& settings) const
{
    settings.setValue(QStringLiteral("view/model"), m_model->currentText());
    settings.setValue(QStringLiteral("view/device"), m_device->currentText());
    settings.setValue(QStringLiteral("view/overlay"), m_overlayMode->currentText());
    settings.setValue(QStringLiteral("view/batch"), m_batch->value());
    for (const char* name : {"actionShowParams", "actionLeftToRight", "actionMinimap", "actionAbsoluteHeat"})
        if (auto* action = findChild<QAction*>(QLatin1String(name)))
            settings.setValue(QStringLiteral("view/") + QLatin1String(name), action->isChecked());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    m_table = new NodeTablePanel(m_tableModel, this);
    m_properties = new PropertyPanel(this);
    m_summary = new SummaryPanel(this);
    auto dock = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    dock(makePropertiesPane(), tr("Properties"), QStringLiteral("propertiesDock"), Qt::RightDockWidgetArea);
    auto* summary = dock(m_summary, tr("Summary"), QStringLiteral("summaryDock"), Qt::RightDockWidgetArea);
    tabifyDockWidget(summary, findChild<QDockWidget*>(QStringLiteral("propertiesDock")));
    dock(m_table, tr("Nodes"), QStringLiteral("nodesDock"), Qt::BottomDockWidgetArea);
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("nodesDock"))}, {220}, Qt::Vertical);
    resizeDocks({summary}, {340}, Qt::Horizontal);
    summary->raise();
    connect(m_table, &NodeTablePanel::nodeSelected, this, &MainWindow::onTableSelection);
    installRunPanel(this, m_feed, m_scene);
    installTopNodesDock(this, m_feed);
    installRooflineDock(this, m_feed);
}

void MainWindow::onLoaded(const QString& path, std::shared_ptr<const Graph> graph)
{
    m_file = path;
    // ONNX is read, never written: Save asks where to put the .costscope or RLX JSON copy.
    m_doc->reset(graph, formatFromPath(path.toStdString()) == GraphFormat::Onnx ? QString() : path);
    // A graph whose inputs fix the batch opens at that batch, so that the batch control shows what the canvas shows;
    // changing it then rebatches the costs.
    if (const auto own = fixedBatch(*graph); own && *own <= m_batch->maximum())
        m_batch->setValue(static_cast<int>(*own));
    showGraph(std::move(graph), true);
    addRecent(path);
    emit graphLoaded(path);
}

void MainWindow::showGraph(std::shared_ptr<const Graph> graph, bool fresh)
{
    m_graph = std::move(graph);
    updateTitle();
    m_overlay.setGraph(m_graph);
    m_overlay.setCost(nullptr);
    m_tableModel->setGraph(m_graph);
    m_search->setGraph(m_graph.get());
    std::map<NodeId, std::string> problems;
    if (m_graph)
        for (const edit::NodeProblem& p : edit::graphProblems(*m_graph))
            problems.emplace(p.id, p.message); // the first problem of a node is the one to fix first
    m_scene->setProblems(std::move(problems));
    m_properties->showNode(nullptr, -1, nullptr);
    m_summary->showSummary(m_graph.get(), nullptr);
    if (fresh) {
        m_fitOnLayout = true;
        m_savedView = false;
        m_scene->setGraph(m_graph);
    } else {
        m_scene->updateGraph(m_graph);
    }
    m_legend->refresh();
    emit m_feed->graphChanged();
    requestCosts();
}

void MainWindow::onLoadFailed(const QString& path, const QString& message)
{
    statusBar()->showMessage(tr("Could not open %1").arg(path));
    m_reportError(tr("Could not open %1").arg(QFileInfo(path).fileName()), message);
    emit loadFailed(message);
}

void MainWindow::openFile(const QString& path)
{
    if (!maybeSaveChanges())
        return;
    statusBar()->showMessage(tr("Loading %1 …").arg(path));
    m_loader->start(path);
}

void MainWindow::onCanvasSelection(int nodeIndex)
{
    if (m_syncingSelection)
        return;
    m_syncingSelection = true;
    m_table->selectNode(nodeIndex);
    showNode(nodeIndex);
    m_syncingSelection = false;
}

void MainWindow::onTableSelection(int nodeIndex)
{
    if (m_syncingSelection)
        return;
    m_syncingSelection = true;
    if (m_scene->selectNode(static_cast<std::size_t>(nodeIndex)))
        if (auto* item = m_scene->itemForNode(static_cast<std::size_t>(nodeIndex)))
            m_canvas->centerOn(item);
    showNode(nodeIndex);
    m_syncingSelection = false;
}

void MainWindow::showNode(int nodeIndex)
{
    QString problem;
    if (m_graph && nodeIndex >= 0 && static_cast<std::size_t>(nodeIndex) < m_graph->nodes.size())
        if (auto it = m_scene->problems().find(m_graph->nodes[static_cast<std::size_t>(nodeIndex)].id);
            it != m_scene->problems().end())
            problem = QString::fromStdString(it->second);
    if (const int group = m_scene->selectedGroup(); nodeIndex < 0 && group >= 0 && m_graph)
        m_properties->showGroup(*m_graph, m_scene->groups(), group, m_overlay.cost());
    else
        m_properties->showNode(m_graph.get(), nodeIndex, m_overlay.cost(), problem);
    m_deviceTable->showNode(m_deviceCosts.get(), nodeIndex);
    if (nodeIndex >= 0 || m_scene->selectedGroup() >= 0)
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("propertiesDock")))
            dock->raise();
}

void MainWindow::setCostProvider(CostProvider provider)
{
    m_costProvider = std::move(provider);
    requestCosts();
}

void MainWindow::applyCosts(std::shared_ptr<const GraphCost> cost)
{
    m_overlay.setCost(cost);
    m_tableModel->setCost(cost);
    m_scene->refreshOverlay();
    m_legend->refresh();
    m_summary->showSummary(m_graph.get(), cost.get());
    showNode(m_scene->selectedNode());
    if (m_totalBeforeEdit && cost) {
        m_lastEditCostChange = tr("%1: %2 %3 → %4").arg(m_lastEditText, QString::fromStdString(cost->profile),
                                                        formatNs(*m_totalBeforeEdit), formatNs(cost->totalNs));
        statusBar()->showMessage(m_lastEditCostChange, 10000);
        m_totalBeforeEdit.reset();
    }
    emit m_feed->costsUpdated();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSaveChanges()) {
        event->ignore();
        return;
    }
    m_autosaver->discard(); // saved, or the user chose to discard: no recovery copy should outlive the window
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    saveViewSettings(settings);
    QMainWindow::closeEvent(event);
}

} // namespace costscope
