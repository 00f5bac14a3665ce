// SPDX-License-Identifier: MIT
#pragma once
#include "backend.h"
#include "jobs/job_tracker.h"
#include "train/family_holdout.h"

#include <QWidget>

#include <memory>
#include <set>
#include <string>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace costscope {

struct RemoteCliOptions;

// The Calibration tab's evaluation (issue 20), the table costscope-cli evaluate prints: the zoo's families measured
// on the selected device and predicted leave-one-family-out, for RLX parity and the Costscope models (share of
// graphs within ±10 % and ±25 %, MAPE, share of nodes within ±25 %), and the learned model's worst misses. Runs off
// the GUI thread (evaluation/device_evaluation.h) with progress and Cancel, under the device's calibrated profile.
// A remote host's device is evaluated there (evaluation/remote_evaluation.h, what costscope-cli evaluate --remote
// runs), under the profile kept here for it (host/calibrated-<backend>), with the host's progress lines and Cancel.
class EvaluationView : public QWidget {
    Q_OBJECT
public:
    explicit EvaluationView(QWidget* parent = nullptr);
    ~EvaluationView() override;

    // `remote`: the host of a remote device (nullptr: this machine's).
    void setBackend(const std::string& backend, DeviceIndex device = 0,
                    std::shared_ptr<const RemoteCliOptions> remote = nullptr);
    // How much Evaluate measures: seconds of timed runs per graph (costscope-cli evaluate --budget), here and on a
    // host, and, here, seconds of measuring the kernel sampler's graphs, which train the learned model's predictors
    // (as ProfileTools::setCalibrationBudget's predictor seconds); 0, the default: Quick's and the evaluation's own.
    // Tests set small ones.
    void setEvaluationBudget(double perGraphS, double samplerBudgetS)
    {
        m_perGraphS = perGraphS;
        m_samplerBudgetS = samplerBudgetS;
    }
    // Shows a report (what a finished evaluation shows; tests feed one directly).
    void showReport(const EvaluationReport& report, const QString& title);

    QPushButton* evaluateButton() const { return m_evaluate; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QCheckBox* quickCheck() const { return m_quick; }
    QLineEdit* familiesEdit() const { return m_families; }
    QTableWidget* accuracyTable() const { return m_table; }
    QTableWidget* worstTable() const { return m_worst; }
    QLabel* status() const { return m_status; }
    bool busy() const { return m_job.busy(); }

signals:
    void evaluated(bool ok);

private:
    void evaluate();
    void evaluateRemotely(const std::set<std::string>& families);
    void finish(const QString& error);
    // A finished evaluation, here or on a host: its report, or why there is none.
    template <typename Evaluation>
    void showResult(const Result<Evaluation>& e, const QString& title)
    {
        if (e)
            showReport(e->report, title);
        finish(e ? QString() : QString::fromStdString(e.error().message));
    }

    QPushButton* m_evaluate;
    QCheckBox* m_quick;
    QLineEdit* m_families;
    QPushButton* m_cancelButton;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    QTableWidget* m_worst;
    std::string m_backend = "cpu";
    DeviceIndex m_device = 0;
    std::shared_ptr<const RemoteCliOptions> m_remote;
    JobTracker m_job; // the evaluation
    double m_perGraphS = 0;
    double m_samplerBudgetS = 0;
};

} // namespace costscope
