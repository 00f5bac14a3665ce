// SPDX-License-Identifier: MIT
#include "panels/evaluation_view.h"

#include "analysis/profile_library.h"
#include "evaluation/device_evaluation.h"
#include "evaluation/remote_evaluation.h"
#include "remote/remote_commands.h"
#include "zoo/model_zoo.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace costscope {

namespace {

QTableWidgetItem* number(double v, int decimals, const QString& suffix = {})
{
    auto* item = new QTableWidgetItem(QString::number(v, 'f', decimals) + suffix);
    item->setData(Qt::UserRole, v);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidget* table(const QStringList& headers)
{
    auto* t = new QTableWidget(0, int(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return t;
}

} // namespace

EvaluationView::EvaluationView(QWidget* parent)
    : QWidget(parent), m_evaluate(new QPushButton(tr("Evaluate on unseen families"))),
      m_quick(new QCheckBox(tr("Quick"))), m_families(new QLineEdit), m_cancelButton(new QPushButton(tr("Cancel"))),
      m_progress(new QProgressBar), m_status(new QLabel),
      m_table(
          table({tr("Model"), tr("Graphs"), tr("±10 %"), tr("±25 %"), tr("MAPE %"), tr("Nodes"), tr("Nodes ±25 %")})),
      m_worst(table({tr("Family"), tr("Graph"), tr("Batch"), tr("Predicted ms"), tr("Measured ms"), tr("Error")}))
{
    m_evaluate->setToolTip(tr("Measure the model zoo on this device and predict each family with predictors trained "
                              "only on the others (costscope-cli evaluate)"));
    m_quick->setToolTip(tr("Batch 1 only and a shorter time per graph"));
    QStringList all;
    for (const std::string& f : zooFamilies())
        all << QString::fromStdString(f);
    m_families->setPlaceholderText(tr("all families"));
    m_families->setToolTip(tr("The zoo families to measure, comma-separated (at least two): %1").arg(all.join(", ")));
    m_cancelButton->setEnabled(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_evaluate);
    buttons->addWidget(m_quick);
    buttons->addWidget(m_families);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_progress, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(new QLabel(tr("Worst misses of the learned model:")));
    layout->addWidget(m_worst, 1);
    connect(m_evaluate, &QPushButton::clicked, this, &EvaluationView::evaluate);
    connect(m_cancelButton, &QPushButton::clicked, &m_job, &JobTracker::cancel);
    connect(&m_job, &JobTracker::progressed, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
}

EvaluationView::~EvaluationView() = default;

void EvaluationView::setBackend(const std::string& backend, DeviceIndex device,
                                std::shared_ptr<const RemoteCliOptions> remote)
{
    m_backend = backend;
    m_device = device;
    m_remote = std::move(remote);
}

void EvaluationView::evaluate()
{
    std::set<std::string> families;
    const auto known = zooFamilies();
    for (const QString& f : m_families->text().split(',', Qt::SkipEmptyParts)) {
        const std::string name = f.trimmed().toStdString();
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            m_status->setText(
                tr("Unknown zoo family %1 (%2).").arg(QString::fromStdString(name), m_families->toolTip()));
            emit evaluated(false);
            return;
        }
        families.insert(name);
    }
    if (m_remote)
        return evaluateRemotely(families);
    const std::string name = "calibrated-" + m_backend;
    const auto lib = ProfileLibrary::load(ProfilePaths::defaults());
    const DeviceProfile* profile = lib.find(name);
    if (!profile) {
        m_status->setText(tr("There is no profile %1: calibrate this device first.").arg(QString::fromStdString(name)));
        emit evaluated(false);
        return;
    }
    m_evaluate->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setVisible(true);
    m_progress->setRange(0, 0);
    m_status->setText(tr("Measuring the zoo on %1 …").arg(QString::fromStdString(m_backend)));
    DeviceEvaluationOptions o;
    o.backend = m_backend;
    o.device = m_device;
    if (m_quick->isChecked()) {
        o.batches = {1};
        o.perGraphS = m_backend == "cpu" ? 0.1 : 0.05;
    }
    if (m_perGraphS > 0)
        o.perGraphS = m_perGraphS;
    o.samplerBudgetS = m_samplerBudgetS;
    o.families = families;
    const QString title = tr("%1 (profile %2)").arg(QString::fromStdString(m_backend), QString::fromStdString(name));
    m_job.start(
        [o, calibrated = *profile](const JobContext& job) mutable {
            o.cancel = job.cancelFlag();
            o.onProgress = [&job](std::size_t done, std::size_t total) { job.progress(int(done), int(total)); };
            auto backend = loadBackend(o.backend);
            return backend ? evaluateOnDevice(**backend, calibrated, o) : Result<DeviceEvaluation>(backend.error());
        },
        [this, title](const Result<DeviceEvaluation>& e) { showResult(e, title); });
}

void EvaluationView::evaluateRemotely(const std::set<std::string>& families)
{
    const std::string host = m_remote->target.host, name = remoteProfileName(host, m_backend);
    const auto lib = ProfileLibrary::load(ProfilePaths::defaults());
    const DeviceProfile* profile = lib.find(name);
    if (!profile) {
        m_status->setText(tr("There is no profile %1: calibrate this device in File → Remote Devices… first.")
                              .arg(QString::fromStdString(name)));
        emit evaluated(false);
        return;
    }
    const QString device = QString::fromStdString(remoteDeviceId(host, m_backend, m_device));
    m_evaluate->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setVisible(true);
    m_progress->setRange(0, 0); // the host reports lines, not counts
    m_status->setText(tr("Measuring the zoo on %1 …").arg(device));
    RemoteEvaluationRequest request;
    request.remote = *m_remote;
    request.backend = m_backend;
    request.device = m_device;
    request.families = families;
    if (m_quick->isChecked()) { // as on this machine
        request.batches = {1};
        request.perGraphS = m_backend == "cpu" ? 0.1 : 0.05;
    }
    if (m_perGraphS > 0)
        request.perGraphS = m_perGraphS;
    request.profile = *profile;
    QPointer<QLabel> status = m_status;
    request.remote.onProgress = [status](const std::string& line) {
        QMetaObject::invokeMethod(status, [status, text = QString::fromStdString(line)] {
            if (status)
                status->setText(text);
        });
    };
    const QString title = tr("%1 (profile %2)").arg(device, QString::fromStdString(name));
    m_job.start(
        [request](const JobContext& job) mutable {
            request.remote.cancel = job.cancelFlag();
            return evaluateOnRemoteDevice(request);
        },
        [this, title](const Result<RemoteEvaluation>& e) { showResult(e, title); });
}

void EvaluationView::finish(const QString& error)
{
    m_evaluate->setEnabled(true);
    m_cancelButton->setEnabled(false);
    m_progress->setVisible(false);
    if (!error.isEmpty())
        m_status->setText(tr("Evaluation stopped: %1").arg(error));
    emit evaluated(error.isEmpty());
}

void EvaluationView::showReport(const EvaluationReport& r, const QString& title)
{
    m_status->setText(tr("Leave-one-family-out on %1: %n families (%2).", nullptr, int(r.families.size()))
                          .arg(title, QString::fromStdString([&] {
                                   std::string s;
                                   for (const std::string& f : r.families)
                                       s += (s.empty() ? "" : ", ") + f;
                                   return s;
                               }())));
    m_table->setRowCount(0);
    for (const ModelAccuracy& m : r.models) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(m.model)));
        m_table->setItem(row, 1, number(m.graphs.count, 0));
        m_table->setItem(row, 2, number(100 * m.graphs.within10, 0, " %"));
        m_table->setItem(row, 3, number(100 * m.graphs.within25, 0, " %"));
        m_table->setItem(row, 4, number(m.graphs.mape, 1));
        m_table->setItem(row, 5, number(m.nodes.count, 0));
        m_table->setItem(row, 6, number(100 * m.nodes.within25, 0, " %"));
    }
    m_worst->setRowCount(0);
    for (const EvalPrediction& p : r.worst) {
        const int row = m_worst->rowCount();
        m_worst->insertRow(row);
        m_worst->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(p.family)));
        m_worst->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(p.graph)));
        m_worst->setItem(row, 2, number(double(p.batch), 0));
        m_worst->setItem(row, 3, number(p.predictedNs / 1e6, 3));
        m_worst->setItem(row, 4, number(p.measuredNs / 1e6, 3));
        m_worst->setItem(row, 5, number(100 * p.error(), 0, " %"));
    }
}

} // namespace costscope
