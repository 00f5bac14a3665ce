// SPDX-License-Identifier: MIT
#include "panels/run_panel.h"

#include "canvas/fused_kernel_outlines.h"
#include "canvas/overlay_model.h"
#include "charts/run_scatter.h"
#include "formats/graph_file.h"
#include "open_graph_feed.h"
#include "panels/bindings_editor.h"
#include "panels/fusion_verified_view.h"
#include "panels/multi_device_view.h"
#include "panels/profile_tools.h"
#include "panels/remote_hosts_store.h"
#include "panels/run_delta_table.h"
#include "panels/run_error_table.h"
#include "remote/remote_commands.h"
#include "usecases/remote_run_and_compare.h"
#include "usecases/run_and_compare.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace costscope {

namespace {
QString bindingsText(const Bindings& b)
{
    QStringList parts;
    for (const auto& [symbol, value] : b)
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(symbol)).arg(value);
    return parts.join(QLatin1String(", "));
}
} // namespace

RunPanel::RunPanel(OpenGraphFeed* feed, GraphScene* scene, QWidget* parent)
    : QWidget(parent), m_feed(feed), m_scene(scene), m_device(new QComboBox), m_runs(new QSpinBox),
      m_run(new QPushButton(tr("Run"))), m_cancel(new QPushButton(tr("Cancel"))),
      m_exportTrace(new QPushButton(tr("Export trace…"))), m_progress(new QProgressBar), m_status(new QLabel),
      m_tools(new ProfileTools), m_errors(new RunErrorTable), m_scatter(new RunScatter), m_delta(new RunDeltaTable),
      m_allDevices(new MultiDeviceView), m_tabs(new QTabWidget)
{
    for (const auto& b : availableBackends()) {
        for (const DeviceInfo& d : b->devices()) {
            m_device->addItem(QStringLiteral("%1:%2 %3").arg(QString::fromStdString(d.backend)).arg(d.index)
                                  .arg(QString::fromStdString(d.name)));
            m_device->setItemData(m_device->count() - 1, QString::fromStdString(d.backend), kBackendRole);
            m_device->setItemData(m_device->count() - 1, d.index, kDeviceIndexRole);
        }
        addAllDevicesItem(m_device, *b);
    }
    m_device->setToolTip(tr("Backend and device the graph runs on"));
    m_runs->setRange(1, 1000);
    m_runs->setValue(10);
    m_runs->setToolTip(tr("Timed whole-graph runs (after one warm-up run; one more run times every node)"));
    m_cancel->setEnabled(false);
    m_exportTrace->setEnabled(false);
    m_exportTrace->setToolTip(tr("The run, node by node, beside both models' predictions as a Chrome/Perfetto trace "
                                 "(opens in ui.perfetto.dev or chrome://tracing)"));
    m_status->setWordWrap(true);
    auto* tabs = m_tabs;
    tabs->addTab(m_errors, tr("Errors"));
    tabs->addTab(m_scatter, tr("Predicted vs measured"));
    tabs->addTab(m_delta, tr("Compare with previous run"));
    m_fusion = new FusionVerifiedView(feed, scene, [this]() -> Result<RunRequest> {
        if (!m_feed->graph() || m_device->count() == 0)
            return Diagnostic::error(m_feed->graph() ? "No backend device to run on." : "Open a graph first.");
        if (m_device->currentData(kRemoteHostRole).isValid())
            return Diagnostic::error("Fusion is verified on a device of this machine; choose one.");
        return RunRequest{m_feed->graph(), m_feed->settings()->value().bindings,
                          m_device->currentData(kBackendRole).toString().toStdString(),
                          m_device->currentData(kDeviceIndexRole).toInt(), m_runs->value()};
    });
    tabs->addTab(m_fusion, tr("Fusion verified"));
    tabs->addTab(m_tools, tr("Calibration"));
    tabs->addTab(m_allDevices, tr("All devices"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_device, 1);
    controls->addWidget(new QLabel(tr("Runs")));
    controls->addWidget(m_runs);
    controls->addWidget(m_run);
    controls->addWidget(m_cancel);
    controls->addWidget(m_exportTrace);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(tabs, 1);

    connect(m_run, &QPushButton::clicked, this, &RunPanel::start);
    connect(m_exportTrace, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export trace"), QStringLiteral("run.trace.json"),
                                                          tr("Chrome/Perfetto trace (*.json)"));
        if (path.isEmpty())
            return;
        const QString error = exportTrace(path);
        m_status->setText(error.isEmpty() ? tr("Trace written to %1").arg(path) : path + QLatin1String(": ") + error);
    });
    connect(m_cancel, &QPushButton::clicked, &m_job, &JobTracker::cancel);
    connect(&m_job, &JobTracker::busyChanged, this, &RunPanel::setBusy);
    connect(&m_job, &JobTracker::progressed, this, [this](int done, int total) {
        m_progress->setValue(done);
        emit progressed(done, total);
    });
    const auto selectDevice = [this] {
        const auto remote = m_remotes.find(m_device->currentData(kRemoteHostRole).toString());
        m_tools->setBackend(m_device->currentData(kBackendRole).toString().toStdString(),
                            std::max(m_device->currentData(kDeviceIndexRole).toInt(), 0),
                            remote == m_remotes.end() ? nullptr : remote->second);
    };
    connect(m_device, &QComboBox::currentIndexChanged, this, selectDevice);
    selectDevice();
    // Timings taken while a calibration runs would measure both; one at a time.
    // A calibration or a fit saved a profile: the toolbar can offer it now.
    for (auto saved : {&ProfileTools::calibrated, &ProfileTools::fitted})
        connect(m_tools, saved, feed, [feed](bool ok) {
            if (ok)
                emit feed->profilesChanged();
        });
    connect(m_tools, &ProfileTools::busyChanged, this,
            [this](bool busy) { m_run->setEnabled(!busy && !m_job.busy()); });
    connect(m_fusion, &FusionVerifiedView::busyChanged, this,
            [this](bool busy) { m_run->setEnabled(!busy && !m_job.busy() && !m_tools->busy()); });
    // A newly opened or edited graph makes any run in flight stale.
    connect(feed, &OpenGraphFeed::graphChanged, this, [this] {
        m_job.drop();
        clear();
    });
}

RunPanel::~RunPanel() = default;

QString RunPanel::exportTrace(const QString& path) const
{
    if (!m_last)
        return tr("no run to export");
    auto written = writeFileAtomic(path.toStdString(), chromeTraceJson(*m_last->graph, m_last->traceInput()));
    return written ? QString() : QString::fromStdString(written.error().message);
}

void RunPanel::clear()
{
    m_last.reset();
    m_previous.reset();
    m_delta->showRuns(nullptr, nullptr);
    m_exportTrace->setEnabled(false);
    m_errors->showComparison(nullptr);
    m_scatter->showComparison(nullptr);
    FusedKernelOutlines::of(m_scene)->setKernels({});
    m_allDevices->showReport(nullptr);
    m_status->clear();
}

void RunPanel::setBusy(bool busy)
{
    if (!busy && m_progress->maximum() == 0)
        m_progress->setRange(0, 1); // the busy bar of a run on all devices stops, whether its result is shown or not
    m_run->setEnabled(!busy && !m_tools->busy());
    m_cancel->setEnabled(busy);
    m_device->setEnabled(!busy);
    m_tools->setEnabled(!busy);
    m_fusion->verifyButton()->setEnabled(!busy && !m_fusion->busy()); // one measurement at a time
}

void RunPanel::start()
{
    auto graph = m_feed->graph();
    if (!graph || m_device->count() == 0) {
        m_status->setText(graph ? tr("No backend device to run on.") : tr("Open a graph first."));
        return;
    }
    if (m_device->currentData(kDeviceIndexRole).toInt() == kAllDevices)
        return startAllDevices();
    if (m_device->currentData(kRemoteHostRole).isValid())
        return startRemote();
    RunRequest request{graph, m_feed->settings()->value().bindings,
                       m_device->currentData(kBackendRole).toString().toStdString(),
                       m_device->currentData(kDeviceIndexRole).toInt(), m_runs->value()};
    // One step per timed run, and a last one for what follows them (the run that times every node, the comparison):
    // the bar reaches 100 % only when the result is in.
    m_progress->setRange(0, request.runs + 1);
    m_progress->setValue(0);
    m_status->setText(tr("Running on %1 with %2 …").arg(m_device->currentText(), bindingsText(request.bindings)));
    m_job.start(
        [request](const JobContext& job) {
            return runAndCompare(request, job.cancelFlag(), [&job](int done, int total) { job.progress(done, total); });
        },
        [this](const Result<RunComparison>& result) { showResult(result); });
}

void RunPanel::removeRemoteDevices(const QString& host)
{
    for (int i = m_device->count() - 1; i >= 0; --i)
        if (m_device->itemData(i, kRemoteHostRole).toString() == host)
            m_device->removeItem(i);
    m_remotes.erase(host);
}

void RunPanel::addRemoteDevices(const RemoteHostDevices& host)
{
    const QString name = QString::fromStdString(host.options.target.host);
    removeRemoteDevices(name);
    m_remotes[name] = std::make_shared<const RemoteCliOptions>(host.options);
    for (const RemoteDevice& d : host.devices) {
        m_device->addItem(QString::fromStdString(d.id + ' ' + d.info.name));
        m_device->setItemData(m_device->count() - 1, QString::fromStdString(d.info.backend), kBackendRole);
        m_device->setItemData(m_device->count() - 1, d.info.index, kDeviceIndexRole);
        m_device->setItemData(m_device->count() - 1, name, kRemoteHostRole);
    }
}

void RunPanel::startRemote()
{
    const QString host = m_device->currentData(kRemoteHostRole).toString();
    RemoteRunRequest request{{m_feed->graph(), m_feed->settings()->value().bindings,
                              m_device->currentData(kBackendRole).toString().toStdString(),
                              m_device->currentData(kDeviceIndexRole).toInt(), m_runs->value()},
                             *m_remotes.at(host),
                             m_graphFile ? m_graphFile().toStdString() : std::string()};
    m_progress->setRange(0, 0); // the remote run reports lines (copying, running), not counts
    m_status->setText(tr("Running on %1 with %2 …").arg(m_device->currentText(), bindingsText(request.run.bindings)));
    QPointer<RunPanel> self(this);
    m_job.start(
        [request, self](const JobContext& job) {
            return runRemotelyAndCompare(request, job.cancelFlag(), [self](const std::string& line) {
                QMetaObject::invokeMethod(qApp, [self, text = QString::fromStdString(line)] {
                    if (self && self->m_job.pending())
                        self->m_status->setText(text);
                });
            });
        },
        [this, host = host.toStdString()](const Result<RunComparison>& result) {
            m_progress->setRange(0, 1);
            showResult(result, host);
        });
}

void RunPanel::showRun(std::shared_ptr<const RunComparison> run)
{
    m_job.drop();
    m_progress->setRange(0, 1);
    showResult(*run);
    if (auto* dock = qobject_cast<QDockWidget*>(parentWidget()))
        dock->raise();
    m_tabs->setCurrentWidget(m_errors);
}

void RunPanel::showResult(const Result<RunComparison>& result, const std::string& host)
{
    if (result)
        m_progress->setValue(m_progress->maximum());
    else
        m_progress->reset();
    if (!result) {
        m_status->setText(QString::fromStdString(result.error().message));
        emit finished(false);
        return;
    }
    m_previous = m_last;
    m_last = std::make_shared<const RunComparison>(*result);
    m_delta->showRuns(m_previous.get(), m_last.get());
    m_exportTrace->setEnabled(true);
    m_errors->showComparison(m_last.get());
    m_scatter->showComparison(m_last);
    m_tools->addRun(m_last, host);
    emit m_feed->showMeasuredRequested(m_last->graph, m_last->measuredByNode());
    // The outlines name nodes of the open graph; a sweep's run of another graph has none to outline there.
    FusedKernelOutlines::of(m_scene)->setKernels(m_last->graph == m_feed->graph() ? fusedKernelsOf(*m_last)
                                                                                  : std::vector<FusedKernelOutline>{});
    m_status->setText(tr("%1:%2 with %3: measured %4 (median of %5, spread %6 %); RLX parity %7 (%8 %), "
                         "Costscope %9 (%10 %)")
                          .arg(QString::fromStdString(m_last->backend)).arg(m_last->device)
                          .arg(bindingsText(m_last->bindings), formatNs(double(m_last->whole.medianNs)))
                          .arg(m_last->whole.runs).arg(100 * m_last->whole.spread, 0, 'f', 1)
                          .arg(formatNs(m_last->rlxTotalNs))
                          .arg(errorPercent(m_last->rlxTotalNs, double(m_last->whole.medianNs)), 0, 'f', 1)
                          .arg(formatNs(m_last->costscopeTotalNs))
                          .arg(errorPercent(m_last->costscopeTotalNs, double(m_last->whole.medianNs)), 0, 'f', 1));
    if (const auto& h = m_last->hostSpeed)
        m_status->setText(m_status->text()
                          + tr("; host-adjusted %1 (%2 %): host now vs calibration gemm %3x, kernels %4x, memory %5x, "
                               "dispatch %6x")
                                .arg(formatNs(m_last->costscopeHostTotalNs))
                                .arg(errorPercent(m_last->costscopeHostTotalNs, double(m_last->whole.medianNs)), 0, 'f', 1)
                                .arg(h->gemm, 0, 'f', 2).arg(h->kernel, 0, 'f', 2).arg(h->memory, 0, 'f', 2)
                                .arg(h->dispatch, 0, 'f', 2));
    emit finished(true);
}

void installRunPanel(QMainWindow* window, OpenGraphFeed* feed, GraphScene* scene)
{
    auto* dock = new QDockWidget(QObject::tr("Run"), window);
    dock->setObjectName(QStringLiteral("runDock"));
    auto* panel = new RunPanel(feed, scene, window);
    for (const RemoteHostDevices& host : savedRemoteHosts()) // the hosts listed in an earlier session
        panel->addRemoteDevices(host);
    dock->setWidget(panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
}

} // namespace costscope
