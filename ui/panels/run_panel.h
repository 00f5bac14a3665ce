// SPDX-License-Identifier: MIT
#pragma once

#include "jobs/job_tracker.h"
#include "multi_device_run_report.h"
#include "run_comparison.h"

#include <QWidget>

#include <functional>
#include <map>
#include <memory>

class QComboBox;
class QMainWindow;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace costscope {

struct RemoteCliOptions;
struct RemoteHostDevices;
class GraphScene;
class OpenGraphFeed;
class MultiDeviceView;
class ProfileTools;
class FusionVerifiedView;
class RunDeltaTable;
class RunErrorTable;
class RunScatter;

// Runs the open graph with the window's bindings on the chosen backend device, off the GUI thread, and compares
// every node with the RLX parity and Costscope predictions: an error table, a predicted-vs-measured scatter and the
// canvas's Measured overlay. Cancel stops between nodes; results for a graph that is no longer open are dropped.
// A third tab holds "Calibrate this device" and "Fit corrections from runs" (ProfileTools).
// A remote host's devices (listed in File → Remote Devices…) are offered beside this machine's as host/cpu,
// host/cuda:0: a run there goes over ssh (remote_run_and_compare.h), with the remote's progress lines and Cancel, and
// fills the same views, priced under the host's calibration where it is kept here.
class RunPanel : public QWidget {
    Q_OBJECT
public:
    // deviceSelector() items carry the backend name and the device index in these roles.
    static constexpr int kBackendRole = Qt::UserRole;
    static constexpr int kDeviceIndexRole = Qt::UserRole + 1;
    // The device index of "All <backend> devices": every device of the backend, shown in multiDeviceView().
    static constexpr int kAllDevices = -1;
    // The remote host of a device (RemoteCliOptions' target host); unset for this machine's devices.
    static constexpr int kRemoteHostRole = Qt::UserRole + 2;

    // Runs the open graph of `feed` under its settings' bindings; `scene` outlines the fused kernels of a run.
    RunPanel(OpenGraphFeed* feed, GraphScene* scene, QWidget* parent = nullptr);
    ~RunPanel() override;

    QComboBox* deviceSelector() const { return m_device; }
    QSpinBox* runsSpin() const { return m_runs; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* exportTraceButton() const { return m_exportTrace; }
    QLabel* status() const { return m_status; }
    RunErrorTable* errorTable() const { return m_errors; }
    RunScatter* scatter() const { return m_scatter; }
    RunDeltaTable* deltaTable() const { return m_delta; }
    ProfileTools* profileTools() const { return m_tools; }
    FusionVerifiedView* fusionView() const { return m_fusion; }
    MultiDeviceView* multiDeviceView() const { return m_allDevices; }
    // The run shown; nullptr before the first run and once another graph is open.
    std::shared_ptr<const RunComparison> lastRun() const { return m_last; }
    // The run before it, of the same graph (nullptr before the second run).
    std::shared_ptr<const RunComparison> previousRun() const { return m_previous; }
    // A finished Ray sweep (sweepDeviceReport) in the per-device table and chart, each run beside its predictions.
    void showSweep(std::shared_ptr<const MultiDeviceRunReport> report);
    // A run made elsewhere (a Ray sweep's cell, read back by compareRunJson) in the per-node views, like a run here.
    void showRun(std::shared_ptr<const RunComparison> run);
    // The file the open graph still is (empty once edited, or for a new graph): a remote run sends it, weights and
    // external data included, as costscope-cli run --remote does.
    void setGraphFile(std::function<QString()> currentFile) { m_graphFile = std::move(currentFile); }
    // Offers `host`'s devices after this machine's (replacing what an earlier listing of the host offered).
    void addRemoteDevices(const RemoteHostDevices& host);
    // Stops offering the devices of `host` (a RemoteCliOptions' target host).
    void removeRemoteDevices(const QString& host);
    // Writes the run shown as a Chrome/Perfetto trace (chromeTraceJson); the error, or an empty string.
    QString exportTrace(const QString& path) const;

signals:
    void progressed(int done, int total);
    void finished(bool ok);

private:
    void start();
    void showResult(const Result<RunComparison>& result, const std::string& host = {});
    void startRemote();
    // run_panel_all_devices.cpp: "All <backend> devices" for a GPU backend with any device, and its run.
    static void addAllDevicesItem(QComboBox* selector, const Backend& backend);
    void startAllDevices();
    void showAllDevices(const Result<MultiDeviceRunReport>& result);
    void setBusy(bool busy);
    void clear();

    OpenGraphFeed* m_feed;
    GraphScene* m_scene;
    QComboBox* m_device;
    QSpinBox* m_runs;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_exportTrace;
    QProgressBar* m_progress;
    QLabel* m_status;
    ProfileTools* m_tools;
    RunErrorTable* m_errors;
    RunScatter* m_scatter;
    RunDeltaTable* m_delta;
    FusionVerifiedView* m_fusion;
    MultiDeviceView* m_allDevices;
    QTabWidget* m_tabs;
    // One run at a time: a newly opened or edited graph drops the run's result; Cancel stops it between nodes.
    JobTracker m_job;
    std::shared_ptr<const RunComparison> m_last;
    std::shared_ptr<const RunComparison> m_previous;
    std::map<QString, std::shared_ptr<const RemoteCliOptions>> m_remotes; // by kRemoteHostRole
    std::function<QString()> m_graphFile;
};

// Creates the Run panel and docks it in `window`.
void installRunPanel(QMainWindow* window, OpenGraphFeed* feed, GraphScene* scene);

} // namespace costscope
