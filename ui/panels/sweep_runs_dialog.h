// SPDX-License-Identifier: MIT
#pragma once

#include "fleet/fleet_sweep.h"
#include "multi_device_run_report.h"
#include "run_comparison.h"

#include "jobs/job_tracker.h"
#include <QDialog>

#include <atomic>
#include <memory>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace costscope {

struct SweepRunsOutcome;

// File → Sweep Runs on Ray…: the grid `costscope-cli sweep-runs --ray` runs (graphs × batches × devices, the graphs
// as paths on the workers, the open graph's by default) submitted as Ray jobs through the Jobs REST API
// (engine/fleet), off the GUI thread, with progress per finished cell and Cancel (which stops the jobs in flight).
// The results land in a table, one row per cell (measured median, the Costscope and RLX predictions and the error,
// or why the cell failed after its retries), save as the CLI's JSON or CSV, and open in the Run panel's per-device
// comparison (Compare in Run Panel: compareRequested, then the dialog closes). Show Selected Run opens one cell's
// per-node times in the Run panel's per-node views (runRequested), priced here like a run of this machine; the open
// graph's cells at its own batch land on the canvas's Measured overlay too.
class SweepRunsDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { Graph, Batch, Device, Status, Attempts, Measured, Costscope, Error, Rlx, Detail };

    // `openGraph`: the graph shown, of the file `graphPath`, whose runs fill the Measured overlay.
    explicit SweepRunsDialog(const QString& graphPath, QWidget* parent = nullptr,
                             std::shared_ptr<const costscope::Graph> openGraph = nullptr);
    ~SweepRunsDialog() override;

    QLineEdit* rayEdit() const { return m_ray; }
    QLineEdit* graphsEdit() const { return m_graphs; }
    QLineEdit* batchesEdit() const { return m_batches; }
    QLineEdit* devicesEdit() const { return m_devices; }
    QLineEdit* cliEdit() const { return m_cli; }
    QLineEdit* runArgsEdit() const { return m_runArgs; }
    QSpinBox* retriesSpin() const { return m_retries; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* compareButton() const { return m_compare; }
    QPushButton* showRunButton() const { return m_showRun; }
    QProgressBar* progress() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    QTableWidget* resultsTable() const { return m_table; }
    // The last sweep's cells in grid order (empty before one finished).
    const std::vector<SweepCellResult>& results() const { return m_results; }
    // The results as `sweep-runs` writes them; the error, or an empty string.
    QString saveResults(const QString& path) const;

public slots:
    void start();
    void cancel();
    // The selected cell's run in the Run panel's per-node views: runRequested, or why not in the status line.
    void showSelectedRun();

signals:
    void cellFinished(int done, int total);
    void sweepFinished(bool ok);
    // The last sweep's cells as a per-device report (sweepDeviceReport), for the Run panel.
    void compareRequested(std::shared_ptr<const MultiDeviceRunReport> report);
    void runRequested(std::shared_ptr<const RunComparison> run);

private:
    void showOutcome(const SweepRunsOutcome& outcome);
    void fillTable();

    QLineEdit* m_ray;
    QLineEdit* m_graphs;
    QLineEdit* m_batches;
    QLineEdit* m_devices;
    QLineEdit* m_cli;
    QLineEdit* m_runArgs;
    QSpinBox* m_retries;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QPushButton* m_save;
    QPushButton* m_compare;
    QPushButton* m_showRun;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    JobTracker m_job;
    std::vector<SweepCellResult> m_results;
    QString m_rayUrl;
    QString m_graphPath;
    std::shared_ptr<const costscope::Graph> m_openGraph;
};

} // namespace costscope
