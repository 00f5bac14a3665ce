// SPDX-License-Identifier: MIT
#include "panels/profile_tools.h"
#include "analysis/profile_library.h"
#include "calibration/calibrate_device.h"
#include "evaluation/calibrate_with_predictors.h"
#include "panels/evaluation_view.h"
#include "train/kernel_predictor_train.h"
#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>

namespace costscope {

namespace {
constexpr const char* kCalibratedBy = "Costscope (Calibrate this device)";

// Runs `work` on the thread pool and hands its result to `show` on the GUI thread, unless `self` is gone.
template <typename Work, typename Show>
void offGuiThread(QPointer<ProfileTools> self, Work work, Show show)
{
    (void)QtConcurrent::run([self, work = std::move(work), show = std::move(show)]() mutable {
        auto result = work();
        QMetaObject::invokeMethod(qApp, [self, show, result] {
            if (self)
                show(*self, result);
        });
    });
}

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
    connect(m_cancelButton, &QPushButton::clicked, this, [this] {
        if (m_cancel)
            m_cancel->store(true);
    });
    updateButtons();
}

ProfileTools::~ProfileTools()
{
    if (m_cancel)
        m_cancel->store(true);
}

void ProfileTools::setBackend(const std::string& backend, DeviceIndex device)
{
    m_backend = backend;
    m_device = device;
    m_evaluation->setBackend(backend, device);
    updateButtons();
}

void ProfileTools::addRun(std::shared_ptr<const RunComparison> run)
{
    m_runs.push_back(std::move(run));
    updateButtons();
}

std::vector<MeasuredRun> ProfileTools::runsOfBackend() const
{
    std::vector<MeasuredRun> runs;
    for (const auto& r : m_runs)
        if (r->backend == m_backend && !r->nodes.empty()) // a run without per-node times has nothing to fit
            runs.push_back(r->measuredRun());
    return runs;
}

void ProfileTools::updateButtons()
{
    const bool calibratable = canCalibrate(m_backend);
    const auto runs = std::count_if(m_runs.begin(), m_runs.end(), [this](const auto& r) {
        return r->backend == m_backend && !r->nodes.empty();
    });
    m_calibrate->setEnabled(!busy() && calibratable);
    m_calibrate->setToolTip(calibratable ? tr("Microbenchmarks of this %1 device through the backend's own kernels, "
                                              "saved as the device profile calibrated-%1")
                                               .arg(QString::fromStdString(m_backend))
                                         : tr("The %1 backend has no calibration in this build")
                                               .arg(QString::fromStdString(m_backend)));
    m_quick->setEnabled(!busy() && calibratable);
    m_predictors->setEnabled(!busy() && calibratable && predictorTrainingAvailable());
    m_cancelButton->setEnabled(m_cancel != nullptr);
    m_fit->setEnabled(!busy() && runs > 0);
    m_fit->setToolTip(tr("Fit the Costscope model's per-op-class corrections from this session's %n run(s) on %1 "
                         "and store them in calibrated-%1", nullptr, static_cast<int>(runs))
                          .arg(QString::fromStdString(m_backend)));
}

void ProfileTools::setBusy(bool busy)
{
    m_busy = busy;
    if (!busy)
        m_cancel.reset();
    m_progress->setVisible(busy);
    updateButtons();
    emit busyChanged(busy);
}

void ProfileTools::calibrate()
{
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_progress->setRange(0, 0); // busy until the first figure is in
    m_status->setText(tr("Calibrating %1 …").arg(QString::fromStdString(m_backend)));
    setBusy(true);
    QPointer<ProfileTools> self(this);
    DeviceCalibrationOptions options;
    options.backend = m_backend;
    options.device = m_device;
    options.quick = m_quick->isChecked();
    options.tool = kCalibratedBy;
    options.progress = [self, cancel = m_cancel](int done, int total) {
        QMetaObject::invokeMethod(qApp, [self, cancel, done, total] {
            if (!self || self->m_cancel != cancel)
                return; // that calibration is over: a late report would show a stale bar
            self->m_progress->setRange(0, total);
            self->m_progress->setValue(done);
            emit self->calibrationProgress(done, total);
        });
    };
    offGuiThread(
        self,
        [cancel = m_cancel, options, predictors = m_predictors->isChecked()]() mutable -> Result<SavedProfile> {
            options.cancel = cancel.get();
            auto backend = loadBackend(options.backend);
            if (!backend)
                return backend.error();
            CalibrationRequest request{options, predictors, 0};
            auto c = calibrateWithPredictors(**backend, request);
            if (!c)
                return c.error();
            return saveCalibratedProfile(std::move(c->profile));
        },
        [](ProfileTools& tools, const Result<SavedProfile>& saved) { tools.showCalibration(saved); });
}

void ProfileTools::showCalibration(const Result<SavedProfile>& saved)
{
    setBusy(false);
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
    setBusy(true);
    offGuiThread(
        QPointer<ProfileTools>(this),
        [runs = runsOfBackend(), name = "calibrated-" + m_backend]() -> Result<ProfileFit> {
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
        [](ProfileTools& tools, const Result<ProfileFit>& fitted) { tools.showFit(fitted); });
}

void ProfileTools::showFit(const Result<ProfileFit>& result)
{
    setBusy(false);
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
