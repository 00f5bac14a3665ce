// SPDX-License-Identifier: MIT
#include "panels/profile_tools.h"
#include "analysis/profile_library.h"
#include "calibration/calibrate_device.h"
#include "evaluation/calibrate_with_predictors.h"
#include "panels/evaluation_view.h"
#include "remote/remote_cli.h"
#include "remote/remote_commands.h"
#include "train/kernel_predictor_train.h"
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace costscope {

namespace {
constexpr const char* kCalibratedBy = "Costscope (Calibrate this device)";

QString stats(const ErrorStats& before, const ErrorStats& after)
{
    return ProfileTools::tr("MAPE %1 % → %2 %, within ±25 % %3 % → %4 %")
        .arg(before.mape, 0, 'f', 1).arg(after.mape, 0, 'f', 1)
        .arg(100 * before.within25, 0, 'f', 0).arg(100 * after.within25, 0, 'f', 0);
}
} // namespace

ProfileTools::ProfileTools(QWidget* parent)
    : QWidget(parent), m_calibrate(new QPushButton(tr("Calibrate this device"))), m_quick(new QCheckBox(tr("Quick"))),
      m_predictors(new QCheckBox(tr("Learn kernel predictors"))), m_evaluation(new EvaluationView),
      m_cancelButton(new QPushButton(tr("Cancel"))), m_fit(new QPushButton(tr("Fit corrections from runs"))),
      m_progress(new QProgressBar), m_status(new QLabel)
{
    m_predictors->setChecked(predictorTrainingAvailable());
    m_predictors->setEnabled(predictorTrainingAvailable());
    m_predictors->setToolTip(predictorTrainingAvailable()
                                 ? tr("Time the kernel sampler's and the zoo's graphs on this device and learn one "
                                      "XGBoost predictor per kernel class (costscope-cli calibrate does the same)")
                                 : tr("This build has no XGBoost: the analytic terms price every kernel"));
    m_quick->setToolTip(tr("A smaller sgemm grid and smaller buffers (costscope-cli calibrate --quick)"));
    m_cancelButton->setEnabled(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_calibrate);
    buttons->addWidget(m_quick);
    buttons->addWidget(m_predictors);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_fit);
    buttons->addWidget(m_progress, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_evaluation, 1);
    connect(m_calibrate, &QPushButton::clicked, this, &ProfileTools::calibrate);
    connect(m_fit, &QPushButton::clicked, this, &ProfileTools::fit);
    connect(m_cancelButton, &QPushButton::clicked, &m_job, &JobTracker::cancel);
    connect(&m_job, &JobTracker::busyChanged, this, &ProfileTools::setBusy);
    connect(&m_job, &JobTracker::progressed, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        emit calibrationProgress(done, total);
    });
    updateButtons();
}

ProfileTools::~ProfileTools() = default;

void ProfileTools::setBackend(const std::string& backend, DeviceIndex device,
                              std::shared_ptr<const RemoteCliOptions> remote)
{
    m_backend = backend;
    m_device = device;
    m_host = remote ? remote->target.host : std::string();
    m_evaluation->setBackend(backend, device, std::move(remote));
    updateButtons();
}

void ProfileTools::addRun(std::shared_ptr<const RunComparison> run, const std::string& host)
{
    m_runs.emplace_back(host, std::move(run));
    updateButtons();
}

bool ProfileTools::fits(const std::pair<std::string, std::shared_ptr<const RunComparison>>& run) const
{
    // A run without per-node times has nothing to fit.
    return run.first == m_host && run.second->backend == m_backend && !run.second->nodes.empty();
}

std::string ProfileTools::fitProfileName() const
{
    return m_host.empty() ? "calibrated-" + m_backend : remoteProfileName(m_host, m_backend);
}

std::vector<MeasuredRun> ProfileTools::runsOfBackend() const
{
    std::vector<MeasuredRun> runs;
    for (const auto& r : m_runs)
        if (fits(r))
            runs.push_back(r.second->measuredRun());
    return runs;
}

void ProfileTools::updateButtons()
{
    const bool calibratable = m_host.empty() && canCalibrate(m_backend);
    const auto runs = std::count_if(m_runs.begin(), m_runs.end(), [this](const auto& r) { return fits(r); });
    m_calibrate->setEnabled(!busy() && calibratable);
    m_calibrate->setToolTip(
        !m_host.empty()
            ? tr("A device of %1: calibrate it in File → Remote Devices…").arg(QString::fromStdString(m_host))
        : calibratable ? tr("Microbenchmarks of this %1 device through the backend's own kernels, "
                            "saved as the device profile calibrated-%1")
                             .arg(QString::fromStdString(m_backend))
                       : tr("The %1 backend has no calibration in this build").arg(QString::fromStdString(m_backend)));
    m_quick->setEnabled(!busy() && calibratable);
    m_predictors->setEnabled(!busy() && calibratable && predictorTrainingAvailable());
    m_cancelButton->setEnabled(busy() && m_calibrating);
    m_fit->setEnabled(!busy() && runs > 0);
    m_fit->setToolTip(tr("Fit the Costscope model's per-op-class corrections from this session's %n run(s) on %1 "
                         "and store them in %2",
                         nullptr, static_cast<int>(runs))
                          .arg(QString::fromStdString(m_host.empty() ? m_backend : m_host + '/' + m_backend),
                               QString::fromStdString(fitProfileName())));
}

void ProfileTools::setBusy(bool busy)
{
    if (!busy)
        m_calibrating = false;
    m_progress->setVisible(busy);
    updateButtons();
    emit busyChanged(busy);
}

void ProfileTools::calibrate()
{
    m_calibrating = true;
    m_progress->setRange(0, 0); // busy until the first figure is in
    m_status->setText(tr("Calibrating %1 …").arg(QString::fromStdString(m_backend)));
    DeviceCalibrationOptions options;
    options.backend = m_backend;
    options.device = m_device;
    options.quick = m_quick->isChecked();
    options.repeats = m_repeats;
    options.tool = kCalibratedBy;
    m_job.start(
        [options, predictors = m_predictors->isChecked(),
         budget = m_predictorBudgetS](const JobContext& job) mutable -> Result<SavedProfile> {
            options.cancel = job.cancelFlag();
            options.progress = [&job](int done, int total) { job.progress(done, total); };
            auto backend = loadBackend(options.backend);
            if (!backend)
                return backend.error();
            auto c = calibrateWithPredictors(**backend, CalibrationRequest{options, predictors, budget});
            if (!c)
                return c.error();
            return saveCalibratedProfile(std::move(c->profile));
        },
        [this](const Result<SavedProfile>& saved) { showCalibration(saved); });
}

void ProfileTools::showCalibration(const Result<SavedProfile>& saved)
{
    if (!saved) {
        m_status->setText(tr("Calibration stopped: %1").arg(QString::fromStdString(saved.error().message)));
        emit calibrated(false);
        return;
    }
    const DeviceProfile& p = saved->profile;
    m_status->setText(tr("Saved %1 to %2: sgemm up to %3 GFLOP/s, memory %4 GB/s, dispatch %5 ns, %6 kernel "
                         "predictor(s). Runs from now on compare the Costscope model under it.")
                          .arg(QString::fromStdString(p.name), QString::fromStdString(saved->path))
                          .arg(p.sgemmGflops, 0, 'f', 1)
                          .arg(p.memoryBw, 0, 'f', 1)
                          .arg(p.dispatchNs, 0, 'f', 0)
                          .arg(p.kernelPredictors ? int(p.kernelPredictors->size()) : 0));
    emit calibrated(true);
}

void ProfileTools::fit()
{
    m_status->setText(tr("Fitting …"));
    m_progress->setRange(0, 0);
    m_job.start(
        [runs = runsOfBackend(), name = fitProfileName()]() -> Result<ProfileFit> {
            auto lib = ProfileLibrary::load(ProfilePaths::defaults());
            const DeviceProfile* profile = lib.find(name);
            if (!profile)
                return Diagnostic::error("there is no profile " + name + " to store corrections in: calibrate the "
                                         "device first");
            ProfileFit fitted = fitProfileCorrections(*profile, runs);
            if (auto saved = lib.saveUserProfile(fitted.profile); !saved)
                return saved.error();
            return fitted;
        },
        [this](const Result<ProfileFit>& fitted) { showFit(fitted); });
}

void ProfileTools::showFit(const Result<ProfileFit>& result)
{
    if (!result) {
        m_status->setText(tr("No fit: %1").arg(QString::fromStdString(result.error().message)));
        emit fitted(false);
        return;
    }
    const FitReport& r = result->report;
    QStringList factors;
    for (const auto& [cls, f] : r.corrections)
        factors << QStringLiteral("%1 ×%2").arg(QString::fromStdString(cls)).arg(f, 0, 'f', 2);
    m_status->setText(tr("Stored %n correction(s) in %1 (%2).\nPer node: %3\nWhole graph: %4", nullptr,
                         static_cast<int>(r.corrections.size()))
                          .arg(QString::fromStdString(result->profile.name),
                               factors.isEmpty() ? tr("no op class has enough samples yet") : factors.join(", "),
                               stats(r.nodesBefore, r.nodesAfter), stats(r.graphsBefore, r.graphsAfter)));
    emit fitted(true);
}

} // namespace costscope
