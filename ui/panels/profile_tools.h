// SPDX-License-Identifier: MIT
#pragma once
#include "calibration/save_calibration.h"
#include "jobs/job_tracker.h"
#include "run_comparison.h"
#include <QWidget>
#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace costscope {

class EvaluationView;
struct RemoteCliOptions;

// The Run panel's profile tools. "Calibrate this device": the selected device's microbenchmarks (CPU, Vulkan or
// CUDA) off the GUI thread, with progress and Cancel, saved as the user profile calibrated-<backend> the way
// costscope-cli calibrate saves it, with the kernel predictors learned from the sampler and zoo graphs ("Learn kernel
// predictors", as calibrate does unless --no-predictors). Below them, the evaluation on unseen families
// (EvaluationView). "Fit corrections
// from runs": the per-op-class corrections fitted (as costscope-cli fit does) from this session's runs on the
// selected backend, stored in calibrated-<backend>, with the error before and after.
class ProfileTools : public QWidget {
    Q_OBJECT
public:
    explicit ProfileTools(QWidget* parent = nullptr);
    ~ProfileTools() override;

    // The backend and device the Run panel has selected: what Calibrate measures and whose runs Fit uses. A device
    // of a `remote` host fits its runs into the host's calibration (host/calibrated-<backend>) and is evaluated there;
    // it is calibrated in File → Remote Devices….
    void setBackend(const std::string& backend, DeviceIndex device = 0,
                    std::shared_ptr<const RemoteCliOptions> remote = nullptr);
    // A run on `backend` of this machine, or of a remote `host`.
    void addRun(std::shared_ptr<const RunComparison> run, const std::string& host = {});
    bool busy() const { return m_job.busy(); }
    // How much Calibrate measures: timed runs per figure (CPU) and seconds of measuring for the kernel predictors
    // (costscope-cli calibrate --predictor-budget); 0, the default: the calibration's and Quick's own. Tests set
    // small ones.
    void setCalibrationBudget(int repeats, double predictorBudgetS)
    {
        m_repeats = repeats;
        m_predictorBudgetS = predictorBudgetS;
    }

    QPushButton* calibrateButton() const { return m_calibrate; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QPushButton* fitButton() const { return m_fit; }
    QCheckBox* quickCheck() const { return m_quick; }
    QCheckBox* predictorsCheck() const { return m_predictors; }
    EvaluationView* evaluation() const { return m_evaluation; }
    QLabel* status() const { return m_status; }

signals:
    void busyChanged(bool busy);
    void calibrationProgress(int done, int total);
    void calibrated(bool ok);
    void fitted(bool ok);

private:
    void calibrate();
    void showCalibration(const Result<SavedProfile>& saved);
    void fit();
    void showFit(const Result<ProfileFit>& result);
    void setBusy(bool busy);
    void updateButtons();
    std::vector<MeasuredRun> runsOfBackend() const;
    bool fits(const std::pair<std::string, std::shared_ptr<const RunComparison>>& run) const;
    std::string fitProfileName() const;

    QPushButton* m_calibrate;
    QCheckBox* m_quick;
    QCheckBox* m_predictors;
    EvaluationView* m_evaluation;
    QPushButton* m_cancelButton;
    QPushButton* m_fit;
    QProgressBar* m_progress;
    QLabel* m_status;
    std::string m_backend = "cpu";
    DeviceIndex m_device = 0;
    std::string m_host;                                                               // empty: this machine
    std::vector<std::pair<std::string, std::shared_ptr<const RunComparison>>> m_runs; // each with its host

    JobTracker m_job; // a calibration or a fit
    int m_repeats = 0;
    double m_predictorBudgetS = 0;
    bool m_calibrating = false; // the job is a calibration, which Cancel stops (a fit is short)
};

} // namespace costscope
