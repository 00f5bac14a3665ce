// SPDX-License-Identifier: MIT
#include "panels/run_panel.h"

#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"
#include "backend.h"
#include "main_window.h"
#include "measure.h"
#include "synthetic.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <unordered_map>

namespace costscope {

namespace {
// Compiles and measures on the calling (worker) thread; `progress` is called with 0..runs as timed runs finish.
Result<RunResult> runGraph(const Graph& g, const std::string& backendName, int runs, const std::atomic<bool>* cancel,
                           const std::function<void(int)>& progress)
{
    auto backend = makeBackend(backendName);
    if (!backend)
        return Diagnostic::error("backend " + backendName + " is not in this build");
    auto plan = backend->compile(g, {}, 0);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : (*plan)->inputs())
        inputs.push_back(arangeInput(in.dims, in.dtype));
    if (auto r = (*plan)->setInputs(inputs); !r)
        return r.error();
    // One timed run per measure() call so that progress and cancel stay responsive on slow graphs.
    std::vector<std::int64_t> samples;
    RunResult last;
    for (int i = 0; i < runs; ++i) {
        MeasureOptions o;
        o.warmupRuns = i == 0 ? 1 : 0;
        o.timedRuns = 1;
        o.perNode = i == runs - 1;
        o.cancel = cancel;
        auto r = measure(**plan, o);
        if (!r)
            return r.error();
        samples.push_back(r->whole.medianNs);
        last = std::move(*r);
        progress(i + 1);
    }
    last.whole = TimingStats::of(samples);
    return last;
}

QTableWidgetItem* number(double v)
{
    auto* item = new QTableWidgetItem;
    item->setData(Qt::DisplayRole, v);
    return item;
}
} // namespace

RunPanel::RunPanel(MainWindow* window)
    : QWidget(window), m_window(window), m_backend(new QComboBox), m_runs(new QSpinBox),
      m_run(new QPushButton(tr("Run"))), m_cancel(new QPushButton(tr("Cancel"))), m_progress(new QProgressBar),
      m_status(new QLabel), m_table(new QTableWidget(0, 6))
{
    for (const auto& b : availableBackends())
        for (const DeviceInfo& d : b->devices())
            m_backend->addItem(QStringLiteral("%1:%2 %3").arg(QString::fromStdString(d.backend)).arg(d.index)
                                   .arg(QString::fromStdString(d.name)),
                               QString::fromStdString(d.backend));
    m_runs->setRange(1, 1000);
    m_runs->setValue(10);
    m_cancel->setEnabled(false);
    m_table->setHorizontalHeaderLabels({tr("Node"), tr("Op"), tr("Measured ns"), tr("RLX ns"), tr("Costscope ns"),
                                        tr("Costscope error %")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_backend, 1);
    controls->addWidget(new QLabel(tr("Runs")));
    controls->addWidget(m_runs);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    connect(m_run, &QPushButton::clicked, this, &RunPanel::start);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_cancelFlag)
            m_cancelFlag->store(true);
    });
    // A newly opened or edited graph makes any run in flight stale.
    connect(window, &MainWindow::graphChanged, this, [this] {
        ++m_generation;
        if (m_cancelFlag)
            m_cancelFlag->store(true);
        m_table->setRowCount(0);
        m_status->clear();
    });
}

RunPanel::~RunPanel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void RunPanel::setBusy(bool busy)
{
    m_run->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    m_backend->setEnabled(!busy);
}

void RunPanel::start()
{
    m_runGraph = m_window->graph();
    if (!m_runGraph || m_backend->count() == 0) {
        m_status->setText(tr("Open a graph first."));
        return;
    }
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;
    const int runs = m_runs->value();
    m_progress->setRange(0, runs);
    m_progress->setValue(0);
    m_status->setText(tr("Running…"));
    setBusy(true);
    QPointer<RunPanel> self(this);
    auto graph = m_runGraph;
    auto cancel = m_cancelFlag;
    const std::string backend = m_backend->currentData().toString().toStdString();
    (void)QtConcurrent::run([self, graph, cancel, backend, runs, generation] {
        auto progress = [self](int done) {
            QMetaObject::invokeMethod(qApp, [self, done] {
                if (self)
                    self->m_progress->setValue(done);
            });
        };
        auto r = runGraph(*graph, backend, runs, cancel.get(), progress);
        auto result = r ? std::make_shared<const RunResult>(std::move(*r)) : nullptr;
        const QString error = r ? QString() : QString::fromStdString(r.error().message);
        QMetaObject::invokeMethod(qApp, [self, generation, result, error] {
            if (self)
                self->showResult(generation, result, error);
        });
    });
}

void RunPanel::showResult(quint64 generation, std::shared_ptr<const RunResult> result, const QString& error)
{
    setBusy(false);
    if (generation != m_generation)
        return; // a graph opened (or a run started) since: these numbers describe something else
    if (!result) {
        m_status->setText(error);
        emit finished(false);
        return;
    }
    const Graph& g = *m_runGraph;
    const auto set = rlxProfileSet("rlx-linux");
    const DeviceProfile rlxProfile = *findProfile(set, Device::Cpu);
    const auto lib = ProfileLibrary::load(ProfilePaths::defaults());
    const DeviceProfile* calibrated = lib.find("calibrated-" + result->backend);
    const GraphCost rlx = makeCostModel("rlx")->estimate(g, rlxProfile);
    const GraphCost cs = makeCostModel("costscope")->estimate(g, calibrated ? *calibrated : rlxProfile);
    std::unordered_map<NodeId, std::pair<double, double>> predicted;
    for (std::size_t i = 0; i < rlx.nodes.size() && i < cs.nodes.size(); ++i)
        predicted[rlx.nodes[i].id] = {rlx.nodes[i].totalNs, cs.nodes[i].totalNs};
    m_table->setSortingEnabled(false);
    m_table->setRowCount(static_cast<int>(result->perNode.size()));
    for (int row = 0; row < static_cast<int>(result->perNode.size()); ++row) {
        const NodeTiming& t = result->perNode[static_cast<std::size_t>(row)];
        const auto [r, c] = predicted[t.node];
        m_table->setItem(row, 0, number(double(t.node)));
        m_table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(t.label)));
        m_table->setItem(row, 2, number(double(t.ns)));
        m_table->setItem(row, 3, number(r));
        m_table->setItem(row, 4, number(c));
        m_table->setItem(row, 5, number(t.ns > 0 ? 100.0 * (c - double(t.ns)) / double(t.ns) : 0.0));
    }
    m_table->setSortingEnabled(true);
    const double measured = double(result->whole.medianNs);
    m_status->setText(tr("whole graph: measured %1 ms (median of %2), RLX %3 ms, Costscope (%4) %5 ms")
                          .arg(measured / 1e6, 0, 'f', 3).arg(result->whole.runs).arg(rlx.totalNs / 1e6, 0, 'f', 3)
                          .arg(QString::fromStdString(cs.profile)).arg(cs.totalNs / 1e6, 0, 'f', 3));
    emit finished(true);
}

void installRunPanel(MainWindow* window)
{
    auto* dock = new QDockWidget(QObject::tr("Run"), window);
    dock->setObjectName(QStringLiteral("runDock"));
    dock->setWidget(new RunPanel(window));
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
}

} // namespace costscope
