// SPDX-License-Identifier: MIT
// File → Sweep Runs on Ray…: the grid of the open graph × batches × devices through a Jobs API on 127.0.0.1
// (tests/remote/fake_ray_jobs.py, which runs each job here as Ray's supervisor would), progress per finished cell,
// a retried failure counted once, the results table and the CLI's JSON/CSV, a cell's per-node times read back for
// the Run panel's per-node views; a bad grid refused before anything is submitted; Cancel and an unreachable head
// ending the sweep with a message; and the same on a real Ray head where scripts/setup_ray.sh installed one.
#include "formats/graph_file.h"
#include "panels/multi_device_view.h"
#include "panels/sweep_runs_dialog.h"
#include "ray_head.h"
#include "test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
QString startFake(QProcess& server, const QStringList& args)
{
    server.start("python3", QStringList{sourcePath("tests/remote/fake_ray_jobs.py")} + args);
    if (!server.waitForStarted() || !server.waitForReadyRead(10000))
        return {};
    return "http://127.0.0.1:" + QString::fromUtf8(server.readLine()).trimmed();
}

void fill(SweepRunsDialog& d, const QString& url, const QString& batches, const QString& runArgs)
{
    d.rayEdit()->setText(url);
    d.batchesEdit()->setText(batches);
    d.devicesEdit()->setText("cpu");
    d.cliEdit()->setText(cliPath());
    d.runArgsEdit()->setText(runArgs);
}

QString cell(const QTableWidget* t, int row, SweepRunsDialog::Column c)
{
    return t->item(row, c) ? t->item(row, c)->text() : QString();
}
} // namespace

class TestSweepRunsDialog : public QObject {
    Q_OBJECT
private slots:
    void gridRunsOnRayAndComesBack()
    {
        QProcess server;
        const QString url = startFake(server, {"--fail-first", "1"});
        if (url.isEmpty())
            QSKIP("python3 could not start the fake Jobs API (tests/remote/fake_ray_jobs.py)");
        const QString graph = sourcePath("resources/examples/cnn.hir.json");
        auto loaded = loadGraphFile(graph.toStdString());
        QVERIFY(loaded);
        const auto open = std::make_shared<const Graph>(std::move(loaded->graph));
        SweepRunsDialog d(graph, nullptr, open); // the open graph's path is the default grid
        QCOMPARE(d.graphsEdit()->text(), graph);
        // Batch 0: the graph as its file states it, which is the open graph.
        fill(d, url, "0, 2", "--runs 1 --warmup 0 --no-host-probe --per-node");
        QSignalSpy cells(&d, &SweepRunsDialog::cellFinished);
        QSignalSpy finished(&d, &SweepRunsDialog::sweepFinished);
        d.startButton()->click();
        QVERIFY(!d.startButton()->isEnabled() && d.cancelButton()->isEnabled());
        QVERIFY(finished.wait(120000));
        server.kill();
        server.waitForFinished();
        QVERIFY2(finished.first().first().toBool(), qPrintable(d.statusLabel()->text()));
        QCOMPARE(cells.size(), 2);
        QCOMPARE(cells.last().at(0).toInt(), 2);
        QCOMPARE(cells.last().at(1).toInt(), 2);
        const QTableWidget* t = d.resultsTable();
        QCOMPARE(t->rowCount(), 2);
        int attempts = 0;
        for (int row = 0; row < 2; ++row) {
            QCOMPARE(cell(t, row, SweepRunsDialog::Batch), row == 0 ? QString("as stated") : QString("2"));
            QCOMPARE(cell(t, row, SweepRunsDialog::Device), QString("cpu"));
            QCOMPARE(cell(t, row, SweepRunsDialog::Status), QString("ok"));
            QVERIFY2(cell(t, row, SweepRunsDialog::Measured).endsWith("s"),
                     qPrintable(cell(t, row, SweepRunsDialog::Measured)));
            QVERIFY(cell(t, row, SweepRunsDialog::Costscope).endsWith("s"));
            QVERIFY(cell(t, row, SweepRunsDialog::Error).endsWith("%"));
            attempts += cell(t, row, SweepRunsDialog::Attempts).toInt();
        }
        QCOMPARE(attempts, 3); // the injected failure was submitted again, and counted once
        QCOMPARE(d.results().size(), std::size_t(2));
        QTemporaryDir tmp;
        QVERIFY(d.saveResults(tmp.filePath("sweep.json")).isEmpty());
        QVERIFY(d.saveResults(tmp.filePath("sweep.csv")).isEmpty());
        QFile json(tmp.filePath("sweep.json")), csv(tmp.filePath("sweep.csv"));
        QVERIFY(json.open(QIODevice::ReadOnly) && csv.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(j["succeeded"].toInt(), 2);
        QCOMPARE(j["ray"].toString(), url);
        QCOMPARE(csv.readAll().count('\n'), 3);

        // Show Selected Run: a cell's per-node times priced here, for the Run panel's per-node views. The open graph's
        // cell is a run of the graph shown (the Measured overlay takes it); the other is of its file at batch 2.
        QVERIFY(!d.showRunButton()->isEnabled());
        QSignalSpy shown(&d, &SweepRunsDialog::runRequested);
        for (int row = 0; row < 2; ++row) {
            d.resultsTable()->setCurrentCell(row, 0);
            QVERIFY(d.showRunButton()->isEnabled());
            d.showRunButton()->click();
            QVERIFY2(shown.wait(30000), qPrintable(d.statusLabel()->text()));
            const auto run = shown.last().first().value<std::shared_ptr<const RunComparison>>();
            QVERIFY(run && !run->nodes.empty() && run->whole.medianNs > 0);
            QCOMPARE(run->graph == open, row == 0);
            QCOMPARE(run->graph->nodes.size(), open->nodes.size());
            QVERIFY2(QString::fromStdString(run->deviceName).startsWith("cpu (Ray job "), run->deviceName.c_str());
            QVERIFY(run->costscopeTotalNs > 0 && run->nodes.front().measuredNs > 0);
        }

        // Compare in Run Panel: each run beside its predictions in the per-device table the Run panel shows.
        QVERIFY(d.compareButton()->isEnabled());
        QSignalSpy compared(&d, &SweepRunsDialog::compareRequested);
        d.compareButton()->click();
        QCOMPARE(compared.size(), 1);
        const auto report = compared.first().first().value<std::shared_ptr<const MultiDeviceRunReport>>();
        QVERIFY(report && report->devices.size() == 2);
        MultiDeviceView view;
        view.showReport(report);
        QCOMPARE(view.table()->rowCount(), 2);
        for (int row = 0; row < 2; ++row) {
            const DeviceRunReport& r = report->devices[std::size_t(row)];
            QVERIFY(r.run.isolated && r.run.isolated->medianNs > 0);
            QVERIFY(r.predicted && r.predicted->costscope.totalNs > 0 && r.costscopeError());
            QVERIFY2(view.table()
                         ->item(row, MultiDeviceView::Model)
                         ->text()
                         .startsWith(QString("cnn.hir b%1 on cpu").arg(row * 2)),
                     qPrintable(view.table()->item(row, MultiDeviceView::Model)->text()));
            QVERIFY(view.table()->item(row, MultiDeviceView::Predicted)->text().endsWith("s"));
        }
    }

    void realRayHeadRunsTheOpenGraph()
    {
        QTemporaryDir tmp;
        const RayHead head(tmp.filePath("ray"));
        if (head.url().isEmpty())
            QSKIP(qPrintable(head.skipReason()));
        const QString graph = sourcePath("resources/examples/cnn.hir.json");
        auto loaded = loadGraphFile(graph.toStdString());
        QVERIFY(loaded);
        const auto open = std::make_shared<const Graph>(std::move(loaded->graph));
        SweepRunsDialog d(graph, nullptr, open);
        fill(d, head.url(), "0", "--runs 1 --warmup 0 --no-host-probe --per-node");
        QSignalSpy finished(&d, &SweepRunsDialog::sweepFinished);
        d.startButton()->click();
        QVERIFY(finished.wait(180000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(d.statusLabel()->text()));
        QSignalSpy shown(&d, &SweepRunsDialog::runRequested);
        d.resultsTable()->setCurrentCell(0, 0);
        d.showRunButton()->click();
        QVERIFY2(shown.wait(30000), qPrintable(d.statusLabel()->text()));
        const auto run = shown.first().first().value<std::shared_ptr<const RunComparison>>();
        QVERIFY(run && run->graph == open && !run->nodes.empty());
    }

    void badGridIsRefusedBeforeSubmitting()
    {
        SweepRunsDialog d(sourcePath("resources/examples/cnn.hir.json"));
        QSignalSpy finished(&d, &SweepRunsDialog::sweepFinished);
        fill(d, "http://127.0.0.1:1", "1,x", "");
        d.startButton()->click();
        QVERIFY2(d.statusLabel()->text().contains("'x' is not a whole number"), qPrintable(d.statusLabel()->text()));
        fill(d, "http://127.0.0.1:1", "1", "");
        d.devicesEdit()->setText("cpu, gpu:first");
        d.startButton()->click();
        QVERIFY2(d.statusLabel()->text().contains("device 'gpu:first'"), qPrintable(d.statusLabel()->text()));
        d.graphsEdit()->clear();
        d.devicesEdit()->setText("cpu");
        d.startButton()->click();
        QVERIFY2(d.statusLabel()->text().contains("must not be empty"), qPrintable(d.statusLabel()->text()));
        QVERIFY(d.startButton()->isEnabled());
        QCOMPARE(finished.size(), 0);
    }

    void cancelStopsTheSweep()
    {
        QProcess server;
        const QString url = startFake(server, {});
        if (url.isEmpty())
            QSKIP("python3 could not start the fake Jobs API (tests/remote/fake_ray_jobs.py)");
        SweepRunsDialog d(sourcePath("resources/examples/cnn.hir.json"));
        fill(d, url, "1", "--runs 99999999 --warmup 0 --no-host-probe");
        QSignalSpy finished(&d, &SweepRunsDialog::sweepFinished);
        d.startButton()->click();
        QTest::qWait(1500);
        d.cancelButton()->click();
        QVERIFY2(finished.wait(20000), "Cancel did not end the sweep");
        server.kill();
        server.waitForFinished();
        QVERIFY(!finished.first().first().toBool());
        QVERIFY2(d.statusLabel()->text().contains("cancelled"), qPrintable(d.statusLabel()->text()));
        QVERIFY(d.startButton()->isEnabled());
        // The stopped job's costscope-cli is gone with it, not left running on the worker.
        bool orphan = true;
        for (int tries = 0; tries < 30 && orphan; ++tries, QTest::qWait(100)) {
            orphan = false;
            for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
                QFile cmdline("/proc/" + pid + "/cmdline");
                if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains("99999999"))
                    orphan = true;
            }
        }
        QVERIFY2(!orphan, "the cancelled run outlived its job");
    }

    void unreachableHeadFailsEveryCellByName()
    {
        SweepRunsDialog d(sourcePath("resources/examples/cnn.hir.json"));
        fill(d, "http://127.0.0.1:1", "1,2", "--runs 1");
        d.retriesSpin()->setValue(0);
        QSignalSpy finished(&d, &SweepRunsDialog::sweepFinished);
        d.startButton()->click();
        QVERIFY(finished.wait(60000));
        QVERIFY(!finished.first().first().toBool());
        const QTableWidget* t = d.resultsTable();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(cell(t, 0, SweepRunsDialog::Status), QString("FAILED"));
        QVERIFY2(!cell(t, 0, SweepRunsDialog::Detail).isEmpty(), "the failure has no reason");
        QVERIFY2(d.statusLabel()->text().contains("2 of 2 runs failed"), qPrintable(d.statusLabel()->text()));
    }
};

QTEST_MAIN(TestSweepRunsDialog)
#include "test_sweep_runs_dialog.moc"
