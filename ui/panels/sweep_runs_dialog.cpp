// SPDX-License-Identifier: MIT
#include "panels/sweep_runs_dialog.h"

#include "canvas/overlay_model.h"
#include "fleet/sweep_device_report.h"
#include "fleet/sweep_results.h"
#include "formats/graph_file.h"
#include "usecases/run_json_comparison.h"

#include <QApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <unistd.h>

namespace costscope {

// What the worker hands back: every cell's result, or why the sweep as a whole ended (Ray gone, cancelled).
struct SweepRunsOutcome {
    std::vector<SweepCellResult> results;
    std::string error;
};

namespace {
QStringList items(const QLineEdit* edit)
{
    QStringList out;
    for (const QString& s : edit->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!s.trimmed().isEmpty())
            out << s.trimmed();
    return out;
}

QString nsText(const nlohmann::ordered_json& run, const char* pointer)
{
    const auto p = nlohmann::ordered_json::json_pointer(pointer);
    return run.contains(p) && run[p].is_number() ? formatNs(run[p].get<double>()) : QStringLiteral("–");
}
} // namespace

SweepRunsDialog::SweepRunsDialog(const QString& graphPath, QWidget* parent,
                                 std::shared_ptr<const costscope::Graph> openGraph)
    : QDialog(parent), m_ray(new QLineEdit(QStringLiteral("http://127.0.0.1:8265"))),
      m_graphs(new QLineEdit(graphPath)), m_batches(new QLineEdit(QStringLiteral("1,8"))),
      m_devices(new QLineEdit(QStringLiteral("cpu"))), m_cli(new QLineEdit(QStringLiteral("costscope-cli"))),
      m_runArgs(new QLineEdit(QStringLiteral("--runs 10 --per-node"))), m_retries(new QSpinBox),
      m_progress(new QProgressBar), m_status(new QLabel), m_table(new QTableWidget), m_graphPath(graphPath),
      m_openGraph(std::move(openGraph))
{
    setWindowTitle(tr("Sweep Runs on Ray"));
    m_ray->setToolTip(tr("The Ray dashboard's address (its Jobs REST API): no Python is needed here"));
    m_graphs->setToolTip(tr("Graph files as the workers see them, comma-separated"));
    m_batches->setToolTip(tr("Batch sizes, comma-separated; 0: as the file states"));
    m_devices->setToolTip(tr("Devices on the workers, comma-separated: cpu, cuda:0, vulkan:1"));
    m_cli->setToolTip(tr("costscope-cli on the workers: on their PATH, or a path"));
    m_runArgs->setToolTip(tr("More `costscope-cli run` arguments (--per-node: each node's time, for the Run panel's "
                             "per-node views and fits)"));
    m_retries->setRange(0, 10);
    m_retries->setValue(2);
    m_retries->setToolTip(tr("A failed run is submitted again at most this often"));
    auto* form = new QFormLayout;
    form->addRow(tr("Ray:"), m_ray);
    form->addRow(tr("Graphs:"), m_graphs);
    form->addRow(tr("Batches:"), m_batches);
    form->addRow(tr("Devices:"), m_devices);
    form->addRow(tr("Worker CLI:"), m_cli);
    form->addRow(tr("Run arguments:"), m_runArgs);
    form->addRow(tr("Retries:"), m_retries);
    m_table->setObjectName(QStringLiteral("sweepRunsTable"));
    m_table->setColumnCount(Detail + 1);
    m_table->setHorizontalHeaderLabels({tr("Graph"), tr("Batch"), tr("Device"), tr("Status"), tr("Attempts"),
                                        tr("Measured"), tr("Costscope"), tr("Error"), tr("RLX parity"),
                                        tr("Job / why it failed")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_start = buttons->addButton(tr("Start"), QDialogButtonBox::ActionRole);
    m_cancel = buttons->addButton(tr("Cancel"), QDialogButtonBox::ActionRole);
    m_save = buttons->addButton(tr("Save Results…"), QDialogButtonBox::ActionRole);
    m_compare = buttons->addButton(tr("Compare in Run Panel"), QDialogButtonBox::ActionRole);
    m_compare->setToolTip(tr("Each run beside its predictions in the Run panel's per-device table and chart"));
    m_showRun = buttons->addButton(tr("Show Selected Run"), QDialogButtonBox::ActionRole);
    m_showRun->setToolTip(tr("The selected run's per-node times in the Run panel's error table, chart and Measured "
                             "overlay (run with --per-node)"));
    m_cancel->setEnabled(false);
    m_save->setEnabled(false);
    m_compare->setEnabled(false);
    m_showRun->setEnabled(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        const bool perNode = row >= 0 && row < static_cast<int>(m_results.size()) && m_results[row].succeeded
                             && !m_results[row].run.value("per_node", nlohmann::ordered_json::array()).empty();
        m_showRun->setEnabled(perNode && !m_job.busy());
    });
    connect(m_showRun, &QPushButton::clicked, this, &SweepRunsDialog::showSelectedRun);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        emit compareRequested(std::make_shared<const MultiDeviceRunReport>(sweepDeviceReport(m_results)));
        accept();
    });
    connect(m_start, &QPushButton::clicked, this, &SweepRunsDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &SweepRunsDialog::cancel);
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save sweep results"), QStringLiteral("sweep.json"),
                                                          tr("JSON (*.json);;CSV (*.csv)"));
        if (!path.isEmpty()) {
            const QString error = saveResults(path);
            m_status->setText(error.isEmpty() ? tr("Saved to %1").arg(path) : error);
        }
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&m_job, &JobTracker::progressed, this, [this](int done, int total) {
        m_progress->setValue(done);
        emit cellFinished(done, total);
    });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(900, 560);
}

SweepRunsDialog::~SweepRunsDialog()
{
    cancel();
    m_job.waitForDone(); // the sweep stops its jobs and returns within one poll and one call's timeout
}

void SweepRunsDialog::start()
{
    // The grid goes through the manifest parser `sweep-runs` uses, so that both accept and refuse the same things.
    QJsonArray batches;
    for (const QString& b : items(m_batches)) {
        bool ok = false;
        batches.append(b.toLongLong(&ok));
        if (!ok) {
            m_status->setText(tr("Batches: '%1' is not a whole number").arg(b));
            return;
        }
    }
    const QJsonObject grid{{"graphs", QJsonArray::fromStringList(items(m_graphs))},
                           {"batches", batches},
                           {"devices", QJsonArray::fromStringList(items(m_devices))},
                           {"cli", m_cli->text().trimmed()},
                           {"run_args", QJsonArray::fromStringList(m_runArgs->text().split(' ', Qt::SkipEmptyParts))},
                           {"retries", m_retries->value()}};
    auto manifest = parseSweepManifest(QJsonDocument(grid).toJson().toStdString(), "the sweep");
    if (!manifest) {
        m_status->setText(QString::fromStdString(manifest.error().message));
        return;
    }
    m_rayUrl = m_ray->text().trimmed();
    const std::size_t cells = manifest->cells().size();
    FleetSweepOptions options;
    options.sweepId =
        "costscope-gui-" + std::to_string(QDateTime::currentSecsSinceEpoch()) + '-' + std::to_string(::getpid());
    QPointer<SweepRunsDialog> self(this);
    options.onProgress = [self](const std::string& line) {
        QMetaObject::invokeMethod(qApp, [self, text = QString::fromStdString(line)] {
            if (self && self->m_job.pending())
                self->m_status->setText(text);
        });
    };
    m_progress->setRange(0, static_cast<int>(cells));
    m_progress->setValue(0);
    m_status->setText(tr("Submitting %n run(s) to %1 …", nullptr, static_cast<int>(cells)).arg(m_rayUrl));
    m_start->setEnabled(false);
    m_cancel->setEnabled(true);
    m_save->setEnabled(false);
    m_compare->setEnabled(false);
    m_showRun->setEnabled(false);
    m_job.start(
        [url = m_rayUrl.toStdString(), m = *manifest, options](const JobContext& job) mutable {
            options.cancel = job.cancelFlag();
            options.onCellFinished = [&job](std::size_t done, std::size_t total) {
                job.progress(static_cast<int>(done), static_cast<int>(total));
            };
            auto outcome = std::make_shared<SweepRunsOutcome>();
            auto results = runFleetSweep(RayJobsClient(url), m, options);
            if (results)
                outcome->results = std::move(*results);
            else
                outcome->error = results.error().message;
            return std::shared_ptr<const SweepRunsOutcome>(std::move(outcome));
        },
        [this](std::shared_ptr<const SweepRunsOutcome> outcome) { showOutcome(*outcome); });
}

void SweepRunsDialog::showSelectedRun()
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= static_cast<int>(m_results.size()) || !m_results[row].succeeded)
        return;
    const SweepCellResult& cell = m_results[row];
    // The open graph's own runs (its file at the batch it states) are of the graph shown: they reach the overlay.
    const bool open =
        m_openGraph && QString::fromStdString(cell.cell.graph) == m_graphPath && !cell.run.contains("batch");
    m_status->setText(tr("Reading %1 …").arg(QString::fromStdString(cell.cell.graph)));
    m_job.start(
        [run = cell.run, graph = open ? m_openGraph : nullptr,
         name = cell.cell.device + " (Ray job " + cell.jobs.back() + ')']() mutable -> Result<RunComparison> {
            if (!graph) {
                auto loaded = graphOfRunJson(run);
                if (!loaded)
                    return loaded.error();
                graph = std::make_shared<const costscope::Graph>(std::move(*loaded));
            }
            return compareRunJson(graph, run, {}, name);
        },
        [this](const Result<RunComparison>& run) {
            if (!run) {
                m_status->setText(tr("Cannot show the run: %1").arg(QString::fromStdString(run.error().message)));
                return;
            }
            m_status->setText(tr("Shown in the Run panel."));
            emit runRequested(std::make_shared<const RunComparison>(*run));
        });
}

void SweepRunsDialog::cancel()
{
    m_job.cancel();
}

void SweepRunsDialog::showOutcome(const SweepRunsOutcome& outcome)
{
    m_start->setEnabled(true);
    m_cancel->setEnabled(false);
    if (!outcome.error.empty()) {
        m_status->setText(QString::fromStdString(outcome.error));
        emit sweepFinished(false);
        return;
    }
    m_results = outcome.results;
    fillTable();
    m_save->setEnabled(true);
    m_compare->setEnabled(!m_results.empty());
    int failed = 0;
    for (const SweepCellResult& r : m_results)
        failed += !r.succeeded;
    m_status->setText(
        failed == 0
            ? tr("All %n run(s) gathered.", nullptr, static_cast<int>(m_results.size()))
            : tr("%1 of %2 runs failed after their retries (see the table).").arg(failed).arg(m_results.size()));
    emit sweepFinished(failed == 0);
}

void SweepRunsDialog::fillTable()
{
    m_table->setRowCount(static_cast<int>(m_results.size()));
    int row = 0;
    for (const SweepCellResult& r : m_results) {
        QString error = QStringLiteral("–");
        const auto measured = nlohmann::ordered_json::json_pointer("/whole/median_ns");
        const auto predicted = nlohmann::ordered_json::json_pointer("/predicted/costscope/error");
        if (r.succeeded && r.run.contains(measured) && r.run.contains(predicted))
            error = QStringLiteral("%1 %").arg(100 * r.run[predicted].get<double>(), 0, 'f', 1);
        const QStringList cells = {QString::fromStdString(r.cell.graph),
                                   r.cell.batch > 0 ? QString::number(r.cell.batch) : tr("as stated"),
                                   QString::fromStdString(r.cell.device),
                                   r.succeeded ? tr("ok") : tr("FAILED"),
                                   QString::number(r.attempts),
                                   nsText(r.run, "/whole/median_ns"),
                                   nsText(r.run, "/predicted/costscope/total_ns"),
                                   error,
                                   nsText(r.run, "/predicted/rlx/total_ns"),
                                   r.succeeded ? QString::fromStdString(r.jobs.back())
                                               : QString::fromStdString(r.error)};
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(row, c, new QTableWidgetItem(cells[c]));
        ++row;
    }
    m_table->resizeColumnsToContents();
}

QString SweepRunsDialog::saveResults(const QString& path) const
{
    if (m_results.empty())
        return tr("no results to save");
    const std::string text = path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)
                                 ? sweepResultsCsv(m_results)
                                 : sweepResultsJson(m_results, m_rayUrl.toStdString());
    auto written = writeFileAtomic(path.toStdString(), text);
    return written ? QString() : path + QStringLiteral(": ") + QString::fromStdString(written.error().message);
}

} // namespace costscope
