// SPDX-License-Identifier: MIT
// The main window's analysis tools: symbol bindings and batch presets, the costs on every device (summary bar,
// per-device table, instant device switch), "jump to the costliest nodes" and the Measured overlay of a run.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/legend_widget.h"
#include "canvas/node_item.h"
#include "device_selector.h"
#include "jobs/batched_graph.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include "panels/cost_summary_bar.h"
#include "panels/device_cost_table.h"
#include "panels/property_panel.h"
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFutureWatcher>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

namespace costscope {

QWidget* MainWindow::makeBatchPresets(QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(QStringLiteral("batchPresets"));
    button->setText(tr("Presets"));
    button->setToolTip(tr("Batch presets"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    for (int preset : {1, 8, 64, 512, 4096}) {
        QAction* a = menu->addAction(QStringLiteral("batch %1").arg(preset), this, [this, preset] { m_batch->setValue(preset); });
        a->setObjectName(QStringLiteral("batchPreset%1").arg(preset));
    }
    button->setMenu(menu);
    return button;
}

namespace {
constexpr const char* kRlxVersionKey = "analysis/rlxVersion";
} // namespace

QComboBox* MainWindow::makeRlxVersionSelector(QWidget* parent)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(QStringLiteral("rlxVersion"));
    for (RlxVersion v : rlxVersions())
        box->addItem(tr("RLX %1").arg(QString::fromUtf8(rlxVersionName(v).data())), static_cast<int>(v));
    box->setToolTip(tr("Whose device pick: RLX 0.2.16 leaves Uncalibrated models (RLX's no-device fallbacks) out of "
                       "the ranking unless every device is Uncalibrated; RLX 0.2.14 ranks every model. Costs are the "
                       "same under both."));
    const auto saved = parseRlxVersion(QSettings().value(kRlxVersionKey).toString().toStdString(), kRlxVersionKey);
    box->setCurrentIndex(box->findData(static_cast<int>(saved ? *saved : kDefaultRlxVersion)));
    m_settings->bindRlxVersionSelector(box); // first: what follows reads the settings
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue(kRlxVersionKey, QString::fromUtf8(rlxVersionName(rlxVersion()).data()));
        m_costBar->setRlxVersion(rlxVersion());
        m_deviceTable->setRlxVersion(rlxVersion());
        m_costBar->showCosts(m_deviceCosts.get(), m_device->currentText());
        m_deviceTable->showNode(m_deviceCosts.get(), m_scene->selectedNode());
    });
    return box;
}

RlxVersion MainWindow::rlxVersion() const
{
    return m_settings->value().rlxVersion;
}

QWidget* MainWindow::makePropertiesPane()
{
    auto* split = new QSplitter(Qt::Vertical, this);
    m_deviceTable = new DeviceCostTable(split);
    split->addWidget(m_properties);
    split->addWidget(m_deviceTable);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    return split;
}

void MainWindow::buildAnalysisTools()
{
    m_bindings = new BindingsEditor(this);
    auto* bindingsDock = new QDockWidget(tr("Bindings"), this);
    bindingsDock->setObjectName(QStringLiteral("bindingsDock"));
    bindingsDock->setWidget(m_bindings);
    addDockWidget(Qt::RightDockWidgetArea, bindingsDock);
    if (auto* summary = findChild<QDockWidget*>(QStringLiteral("summaryDock"))) {
        tabifyDockWidget(summary, bindingsDock);
        summary->raise();
    }

    m_costBar = new CostSummaryBar(this);
    QToolBar* bar = new QToolBar(tr("Cost summary"), this);
    bar->setObjectName(QStringLiteral("costSummaryToolBar"));
    bar->setMovable(false);
    bar->addWidget(m_costBar);
    addToolBar(Qt::BottomToolBarArea, bar);

    // The toolbar and the Bindings dock are views of the one settings owner, which the costs read.
    m_settings->bindModelSelector(m_model);
    m_settings->bindDeviceSelector(m_device);
    m_settings->bindBindingSpin(m_batch, "batch");
    connect(m_bindings, &BindingsEditor::bindingsChanged, m_settings, [this] {
        Bindings all = m_settings->value().bindings;
        for (const auto& [symbol, value] : m_bindings->bindings())
            all[symbol] = value;
        m_settings->setBindings(all);
    });
    connect(m_settings, &AnalysisSettingsOwner::changed, m_bindings, [this] {
        // Quiet: a half-updated editor must not write its mix of old and new values back.
        const QSignalBlocker quiet(m_bindings);
        for (const auto& [symbol, value] : Bindings(m_settings->value().bindings))
            m_bindings->setValue(symbol, value);
    });
    connect(m_settings, &AnalysisSettingsOwner::changed, this, &MainWindow::requestCosts);
    connect(m_feed, &OpenGraphFeed::graphChanged, this, &MainWindow::resetAnalysisForGraph);
    m_overlayMode->insertItem(m_overlayMode->findData(static_cast<int>(OverlayMode::None)), tr("Measured time"),
                              static_cast<int>(OverlayMode::Measured));

    QMenu* analysis = new QMenu(tr("&Analysis"), this);
    menuBar()->insertMenu(menuBar()->actions().constLast(), analysis);
    m_jumpCostliest = analysis->addAction(tr("&Jump to Next Costliest Node"), QKeySequence(Qt::CTRL | Qt::Key_J), this,
                                          &MainWindow::jumpToNextCostliest);
    m_jumpCostliest->setObjectName(QStringLiteral("actionJumpCostliest"));
    m_jumpCostliest->setToolTip(tr("Cycle through the %1 costliest nodes on the current device").arg(kCostliestCount));
    analysis->addSeparator();
    analysis->addAction(bindingsDock->toggleViewAction());
    analysis->addAction(bar->toggleViewAction());
    if (auto* tools = findChild<QToolBar*>(QStringLiteral("analysisToolBar"))) {
        tools->addAction(m_jumpCostliest);
        // Beside the model and device it picks among: the batch spin box follows the device selector.
        m_rlxVersion = makeRlxVersionSelector(tools);
        m_precision = makePrecisionSelector(tools);
        for (QAction* a : tools->actions())
            if (tools->widgetForAction(a) == m_batch) {
                tools->insertWidget(a, m_rlxVersion);
                tools->insertWidget(a, m_precision);
                break;
            }
    }
    m_costBar->setRlxVersion(rlxVersion());
    m_deviceTable->setRlxVersion(rlxVersion());
}

void MainWindow::resetAnalysisForGraph()
{
    {
        const QSignalBlocker block(m_bindings);
        m_bindings->setGraph(m_graph.get());
        // The new graph's symbols (shared ones keep their values); the costs are asked for by the caller.
        const QSignalBlocker quiet(m_settings);
        m_settings->setBindings(m_bindings->bindings());
    }
    m_deviceCosts.reset();
    ++m_deviceCostsGeneration;
    m_costliestFor = nullptr;
    m_costBar->showCosts(nullptr, {});
    m_deviceTable->showNode(nullptr, -1);
}

void MainWindow::requestCosts()
{
    if (!m_graph || !m_costProvider)
        return;
    const AnalysisSettings& settings = m_settings->value();
    const std::string model = settings.model;
    const std::string device = settings.device;
    const Bindings bindings = settings.bindings;
    BatchedGraph batched = graphAtBatch(m_graph, bindings.at("batch"));
    showBatchNote(QString::fromStdString(batched.note), batched.pinned);
    batched.graph = atPrecision(batched.graph);
    const quint64 generation = ++m_costGeneration;
    if (m_deviceCosts && m_deviceCosts->precision != settings.precision)
        m_deviceCosts.reset(); // priced at another precision: no view shows them while the new ones come
    if (m_deviceCosts && m_deviceCosts->matches(model, bindings, settings.precision)) {
        // Every device is costed already: a device switch only recolours.
        if (auto cost = m_deviceCosts->find(device)) {
            m_costPending = false;
            applyCosts(std::move(cost));
            m_costBar->showCosts(m_deviceCosts.get(), m_device->currentText());
            return;
        }
    } else {
        requestDeviceCosts(batched.graph, model, bindings, settings.precision);
    }
    // The current device alone comes back sooner than all of them: it colours the canvas meanwhile.
    m_costPending = true;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const GraphCost>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_costGeneration) { // else the toolbar moved on: this answer is stale
            m_costPending = false;
            applyCosts(watcher->result());
        }
    });
    watcher->setFuture(QtConcurrent::run([graph = batched.graph, provider = m_costProvider, request = CostRequest{model, device, bindings}] {
        return provider(*graph, request);
    }));
}

void MainWindow::showBatchNote(const QString& note, bool pinned)
{
    if (note == m_batchNote)
        return;
    m_batchNote = note;
    m_batch->setToolTip(note.isEmpty() ? tr("Value of the symbol 'batch'") : note);
    m_batch->setStyleSheet(pinned ? QStringLiteral("QSpinBox { color: #a33; }") : QString());
    if (!note.isEmpty())
        statusBar()->showMessage(tr("Batch: %1").arg(note), 15000);
}

void MainWindow::requestDeviceCosts(std::shared_ptr<const Graph> graph, const std::string& model,
                                    const Bindings& bindings, const std::string& precision)
{
    std::vector<std::string> devices;
    for (const QString& name : deviceNamesOf(m_device))
        devices.push_back(name.toStdString());
    const quint64 generation = ++m_deviceCostsGeneration;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const DeviceCosts>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_deviceCostsGeneration) // a newer graph, model or binding: stale
            applyDeviceCosts(watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run([graph = std::move(graph), provider = m_costProvider, model, bindings, precision, devices] {
            DeviceCosts costs = computeDeviceCosts(*graph, provider, model, devices, bindings);
            costs.precision = precision;
            return std::make_shared<const DeviceCosts>(std::move(costs));
        }));
}

void MainWindow::applyDeviceCosts(std::shared_ptr<const DeviceCosts> costs)
{
    m_deviceCosts = std::move(costs);
    const std::string device = m_device->currentText().toStdString();
    if (auto cost = m_deviceCosts->find(device); cost && m_costPending) {
        ++m_costGeneration; // the single-device answer still under way is no longer needed
        m_costPending = false;
        applyCosts(std::move(cost));
    }
    m_costBar->showCosts(m_deviceCosts.get(), m_device->currentText());
    m_deviceTable->showNode(m_deviceCosts.get(), m_scene->selectedNode());
    emit deviceCostsUpdated();
}

void MainWindow::showMeasured(const std::shared_ptr<const Graph>& graph, std::vector<std::optional<double>> nsByNode)
{
    m_overlay.setMeasured(graph, std::move(nsByNode));
    m_scene->refreshOverlay();
    m_legend->refresh();
    emit m_feed->measuredChanged();
}

void MainWindow::selectNode(int nodeIndex)
{
    onTableSelection(nodeIndex);
    onCanvasSelection(nodeIndex);
    m_canvas->reveal(m_scene->itemForNode(static_cast<std::size_t>(nodeIndex)));
}

void MainWindow::reloadProfiles()
{
    reloadProfileLibrary();
    fillDeviceSelector(m_device);
    m_deviceCosts.reset(); // a profile fitted again prices differently
    requestCosts();
}

void MainWindow::jumpToNextCostliest()
{
    const GraphCost* cost = m_overlay.cost();
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
    const int node = static_cast<int>(m_costliest[rank]);
    m_costliestCursor = (m_costliestCursor + 1) % m_costliest.size();
    selectNode(node);
    statusBar()->showMessage(tr("Costliest #%1 of %2: %3").arg(rank + 1).arg(m_costliest.size())
                                 .arg(QString::fromStdString(m_graph->nodes[static_cast<std::size_t>(node)].displayName())));
}

} // namespace costscope
