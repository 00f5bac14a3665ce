// SPDX-License-Identifier: MIT
// The Run panel: runs with the window's bindings and chosen device off the GUI thread; the error table (both models,
// per node and whole graph), the predicted-vs-measured scatter and the canvas's Measured overlay; results for an
// older graph are dropped; Cancel ends a run within a second; "Calibrate this device" and "Fit corrections from
// runs" save profiles the way the CLI does.
#include "analysis/profile_io.h"
#include "analysis/rlx_profiles.h"
#include "canvas/overlay_model.h"
#include "charts/run_scatter.h"
#include "fleet/sweep_device_report.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include "panels/multi_device_view.h"
#include "panels/profile_tools.h"
#include "panels/run_delta_table.h"
#include "panels/run_error_table.h"
#include "panels/run_panel.h"
#include "test_paths.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

using namespace costscope;
using namespace costscope::test;

namespace {
bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy loaded(&w, &MainWindow::graphLoaded);
    w.openFile(path);
    return loaded.wait(60000);
}

QString tinyTransformer() { return sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")); }

// Clicks Run and waits for the result; true when the run succeeded.
bool runAndWait(RunPanel* panel, int runs)
{
    panel->runsSpin()->setValue(runs);
    QSignalSpy finished(panel, &RunPanel::finished);
    panel->runButton()->click();
    return finished.wait(120000) && finished.first().first().toBool();
}

double cellValue(QTableWidget* t, int row, int column)
{
    return t->item(row, column)->data(RunErrorTable::kValueRole).toDouble();
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-9; }

// Clicks "Calibrate this device" with Quick on and waits for it: it must succeed and report its progress to the
// end. Failures are recorded on the calling test (check QTest::currentTestFailed()).
void calibrateQuick(ProfileTools* tools)
{
    tools->quickCheck()->setChecked(true);
    tools->predictorsCheck()->setChecked(false); // test_evaluation_view learns them
    tools->setCalibrationBudget(2, 0);           // what is checked is the flow, not the figures' precision

    QSignalSpy calibrated(tools, &ProfileTools::calibrated);
    QSignalSpy progress(tools, &ProfileTools::calibrationProgress);
    tools->calibrateButton()->click();
    QVERIFY(calibrated.wait(300000));
    QVERIFY2(calibrated.first().first().toBool(), qPrintable(tools->status()->text()));
    QVERIFY(progress.size() >= 4);
    QCOMPARE(progress.last().at(0).toInt(), progress.last().at(1).toInt());
}
} // namespace

class TestRunPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // Calibrate and Fit save user profiles under $XDG_DATA_HOME/costscope/profiles: not the real ones.
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

    void runsWithTheWindowsBindings()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(panel);
        QVERIFY(openAndWait(w, tinyTransformer()));
        // The transformer's batch is symbolic: without the window's binding it cannot be compiled.
        w.batchSpin()->setValue(3);
        QCOMPARE(w.bindingsEditor()->bindings().at("batch"), std::int64_t(3));
        QSignalSpy progressed(panel, &RunPanel::progressed);
        auto* bar = panel->findChild<QProgressBar*>();
        QVERIFY(bar);
        bool fullWhileRunning = false; // the bar said 100 % before the result was in
        connect(panel, &RunPanel::progressed, this,
                [&] { fullWhileRunning = fullWhileRunning || bar->value() >= bar->maximum(); });
        panel->runsSpin()->setValue(2);
        QSignalSpy finished(panel, &RunPanel::finished);
        panel->runButton()->click();
        QVERIFY(!panel->runButton()->isEnabled()); // busy while the worker runs
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(panel->status()->text()));
        QCOMPARE(progressed.size(), 2); // one report per timed run
        QCOMPARE(progressed.last().at(0).toInt(), 2);
        QVERIFY(!fullWhileRunning);
        QCOMPARE(bar->value(), bar->maximum());
        QVERIFY(panel->runButton()->isEnabled());
        const auto run = panel->lastRun();
        QVERIFY(run);
        QCOMPARE(run->graph, w.graph());
        QCOMPARE(run->bindings.at("batch"), std::int64_t(3));
        QCOMPARE(run->backend, std::string("cpu"));
        QCOMPARE(run->whole.runs, 2);
        QVERIFY(!run->nodes.empty());
        QVERIFY(panel->status()->text().contains(QStringLiteral("batch=3")));
        // The RLX parity prediction is for the run's backend (the CPU here) and the same bindings.
        QCOMPARE(run->rlxProfile, std::string("rlx-linux/cpu"));
        const auto set = rlxProfileSet("rlx-linux");
        const GraphCost rlx = makeCostModel("rlx")->estimate(*w.graph(), *findProfile(set, Device::Cpu), run->bindings);
        QVERIFY(near(run->rlxTotalNs, rlx.totalNs));
        w.batchSpin()->setValue(5);
        QVERIFY(runAndWait(panel, 1));
        QCOMPARE(panel->lastRun()->bindings.at("batch"), std::int64_t(5));
        QVERIFY(panel->lastRun()->rlxTotalNs > run->rlxTotalNs);
    }

    void exportsTheRunAsATrace()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, tinyTransformer()));
        w.batchSpin()->setValue(2);
        QVERIFY(!panel->exportTraceButton()->isEnabled()); // nothing to export before a run
        QVERIFY(runAndWait(panel, 1));
        QVERIFY(panel->exportTraceButton()->isEnabled());
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("run.trace.json"));
        QCOMPARE(panel->exportTrace(path), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto trace = nlohmann::json::parse(file.readAll().toStdString());
        std::map<int, int> nodeSlices;
        std::set<std::string> processes;
        for (const auto& e : trace["traceEvents"]) {
            if (e.value("cat", "") == "node")
                ++nodeSlices[e["pid"].get<int>()];
            if (e["name"] == "process_name")
                processes.insert(e["args"]["name"].get<std::string>());
        }
        const auto run = panel->lastRun();
        QCOMPARE(nodeSlices[1], int(run->nodes.size()));
        QCOMPARE(nodeSlices[2], int(run->nodes.size()));
        QVERIFY(processes.count("measured: cpu:0 (" + run->deviceName + ")"));
        QVERIFY(processes.count("predicted: rlx (rlx-linux/cpu)"));
        // Another graph: the run no longer describes what is open.
        QVERIFY(openAndWait(w, sourcePath(QStringLiteral("resources/examples/cnn.hir.json"))));
        QVERIFY(!panel->exportTraceButton()->isEnabled());
    }

    void comparesTheLastTwoRuns()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, tinyTransformer()));
        w.batchSpin()->setValue(2);
        QVERIFY(runAndWait(panel, 1));
        QTableWidget* deltas = panel->deltaTable()->table();
        QCOMPARE(deltas->rowCount(), 0); // one run: nothing to compare yet
        w.batchSpin()->setValue(4);
        QVERIFY(runAndWait(panel, 1));
        const auto before = panel->previousRun(), after = panel->lastRun();
        QVERIFY(before && after);
        QCOMPARE(before->bindings.at("batch"), std::int64_t(2));
        QCOMPARE(deltas->rowCount(), int(after->nodes.size())); // the same graph: every node in both
        std::map<qlonglong, double> beforeById;
        for (const NodeComparison& n : before->nodes)
            beforeById[qlonglong(n.id)] = n.measuredNs;
        for (int row = 0; row < deltas->rowCount(); ++row) {
            const auto id = static_cast<qlonglong>(cellValue(deltas, row, RunDeltaTable::Id));
            QCOMPARE(cellValue(deltas, row, RunDeltaTable::Before), beforeById.at(id));
        }
        const QString summary = panel->deltaTable()->summary()->text();
        QVERIFY2(summary.contains("batch=2") && summary.contains("batch=4"), qPrintable(summary));
        // Another graph: the runs no longer describe what is open.
        QVERIFY(openAndWait(w, sourcePath(QStringLiteral("resources/examples/cnn.hir.json"))));
        QVERIFY(!panel->previousRun());
        QCOMPARE(deltas->rowCount(), 0);
    }

    void predictionsFollowTheRunsBackend()
    {
        // What the panel calls with the device a run used: a CUDA run is predicted under RLX's CUDA profile.
        auto graph = std::make_shared<const Graph>(loadGraphFile(tinyTransformer().toStdString())->graph);
        const Bindings b{{"batch", 4}};
        RunResult measured;
        measured.whole = TimingStats::of({1000000});
        const auto cpu = compareRun(graph, b, DeviceInfo{"cpu", 0, "host", 0, 1, "", 0, 0}, measured);
        const auto cuda = compareRun(graph, b, DeviceInfo{"cuda", 1, "gpu", 0, 1, "", 0, 0}, measured);
        QVERIFY(cpu && cuda);
        QCOMPARE(cpu->rlxProfile, std::string("rlx-linux/cpu"));
        QCOMPARE(cuda->rlxProfile, std::string("rlx-linux/cuda"));
        QCOMPARE(cuda->device, 1);
        const auto set = rlxProfileSet("rlx-linux");
        const GraphCost rlxCuda = makeCostModel("rlx")->estimate(*graph, *findProfile(set, Device::Cuda), b);
        QVERIFY(near(cuda->rlxTotalNs, rlxCuda.totalNs));
        QVERIFY(!near(cuda->rlxTotalNs, cpu->rlxTotalNs));
    }

    void runsOnTheChosenDevice()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, tinyTransformer()));
        QComboBox* devices = panel->deviceSelector();
        QVERIFY(devices->count() >= 1);
        QVERIFY(devices->itemText(0).startsWith(QStringLiteral("cpu:0")));
        // A device index the CPU backend does not have: the run must ask for exactly that one and fail.
        devices->addItem(QStringLiteral("cpu:3 (test)"));
        devices->setItemData(devices->count() - 1, QStringLiteral("cpu"), RunPanel::kBackendRole);
        devices->setItemData(devices->count() - 1, 3, RunPanel::kDeviceIndexRole);
        devices->setCurrentIndex(devices->count() - 1);
        QVERIFY(!runAndWait(panel, 1));
        QVERIFY2(panel->status()->text().contains(QStringLiteral("no device 3")), qPrintable(panel->status()->text()));
        devices->setCurrentIndex(0);
        QVERIFY(runAndWait(panel, 1));
        QCOMPARE(panel->lastRun()->device, 0);
    }

    void errorTableShowsBothModels()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, tinyTransformer()));
        QVERIFY(runAndWait(panel, 2));
        const auto run = panel->lastRun();
        QTableWidget* whole = panel->errorTable()->wholeTable();
        QCOMPARE(whole->rowCount(), 2);
        const double measured = double(run->whole.medianNs);
        QCOMPARE(whole->item(RunErrorTable::RlxRow, RunErrorTable::Profile)->text(), QStringLiteral("rlx-linux/cpu"));
        QVERIFY(near(cellValue(whole, RunErrorTable::RlxRow, RunErrorTable::WholeError),
                     errorPercent(run->rlxTotalNs, measured)));
        QVERIFY(near(cellValue(whole, RunErrorTable::CostscopeRow, RunErrorTable::WholeError),
                     errorPercent(run->costscopeTotalNs, measured)));
        const QString errorText = whole->item(RunErrorTable::CostscopeRow, RunErrorTable::WholeError)->text();
        QVERIFY(errorText.endsWith(QStringLiteral(" %")));
        QVERIFY(cellValue(whole, RunErrorTable::RlxRow, RunErrorTable::NodeMape) > 0);
        QTableWidget* nodes = panel->errorTable()->nodeTable();
        QCOMPARE(nodes->rowCount(), int(run->nodes.size()));
        for (int r = 0; r < nodes->rowCount(); ++r) {
            const NodeId id = static_cast<NodeId>(cellValue(nodes, r, RunErrorTable::Id));
            const auto it = std::find_if(run->nodes.begin(), run->nodes.end(),
                                         [&](const NodeComparison& n) { return n.id == id; });
            QVERIFY(it != run->nodes.end());
            QCOMPARE(cellValue(nodes, r, RunErrorTable::Measured), it->measuredNs);
            QVERIFY(near(cellValue(nodes, r, RunErrorTable::RlxError), errorPercent(it->rlxNs, it->measuredNs)));
            QVERIFY(near(cellValue(nodes, r, RunErrorTable::CostscopeError),
                         errorPercent(it->costscopeNs, it->measuredNs)));
        }
    }

    void scatterPlotsEveryNodeByOpClass()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, tinyTransformer()));
        QVERIFY(runAndWait(panel, 1));
        const auto run = panel->lastRun();
        QCustomPlot* plot = panel->scatter()->plot();
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
        auto checkModel = [&](bool rlx) {
            int points = 0, expected = 0;
            QCPGraph* diagonal = nullptr;
            for (int i = 0; i < plot->graphCount(); ++i) {
                QCPGraph* g = plot->graph(i);
                if (g->name() == QLatin1String("y = x")) {
                    diagonal = g;
                    continue;
                }
                for (auto p = g->data()->constBegin(); p != g->data()->constEnd(); ++p) {
                    // Every point is a node of that op class: measured on x, the chosen model's prediction on y.
                    const auto it = std::find_if(run->nodes.begin(), run->nodes.end(), [&](const NodeComparison& n) {
                        return n.measuredNs == p->key && (rlx ? n.rlxNs : n.costscopeNs) == p->value;
                    });
                    if (it == run->nodes.end() || g->name().toStdString() != opClassName(it->opClass))
                        return false;
                    ++points;
                }
            }
            for (const NodeComparison& n : run->nodes)
                expected += n.measuredNs > 0 && (rlx ? n.rlxNs : n.costscopeNs) > 0;
            if (!diagonal || diagonal->data()->size() != 2)
                return false;
            const auto lo = diagonal->data()->at(0), hi = diagonal->data()->at(1);
            return lo->key == lo->value && hi->key == hi->value && points == expected && points > 0;
        };
        QVERIFY(checkModel(false));
        QVERIFY(plot->graphCount() >= 3); // several op classes and the diagonal
        QComboBox* model = panel->scatter()->modelSelector();
        model->setCurrentIndex(model->findData(QStringLiteral("rlx")));
        QVERIFY(checkModel(true));
    }

    void measuredOverlayColoursTheCanvas()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, tinyTransformer()));
        const int measuredItem = w.overlaySelector()->findData(static_cast<int>(OverlayMode::Measured));
        QVERIFY(measuredItem >= 0);
        w.overlaySelector()->setCurrentIndex(measuredItem);
        QCOMPARE(w.overlay().mode(), OverlayMode::Measured);
        QVERIFY(!w.overlay().active()); // nothing measured yet
        QVERIFY(runAndWait(panel, 1));
        QVERIFY(w.overlay().active());
        for (const NodeComparison& n : panel->lastRun()->nodes) {
            QCOMPARE(*w.overlay().value(n.nodeIndex), n.measuredNs);
            if (n.measuredNs > 0)
                QVERIFY(w.overlay().colour(n.nodeIndex).isValid());
        }
        // Another graph: the old measurements are dropped everywhere.
        QVERIFY(openAndWait(w, sourcePath(QStringLiteral("resources/examples/cnn.hir.json"))));
        QVERIFY(!w.overlay().hasMeasured());
        QVERIFY(!w.overlay().active());
        QVERIFY(!panel->lastRun());
        QCOMPARE(panel->errorTable()->nodeTable()->rowCount(), 0);
        QCOMPARE(panel->errorTable()->wholeTable()->rowCount(), 0);
    }

    void resultsForAnOlderGraphAreDropped()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, tinyTransformer()));
        w.batchSpin()->setValue(2048); // a run of tens of ms: 1000 of them outlast the test
        panel->runsSpin()->setValue(1000);
        QSignalSpy finished(panel, &RunPanel::finished);
        QSignalSpy progressed(panel, &RunPanel::progressed);
        panel->runButton()->click();
        QVERIFY(progressed.wait(60000));
        QVERIFY(openAndWait(w, sourcePath(QStringLiteral("resources/examples/cnn.hir.json"))));
        // The run in flight is stopped and its result, for the transformer, never shows.
        QTRY_VERIFY_WITH_TIMEOUT(panel->runButton()->isEnabled(), 10000);
        QTest::qWait(100);
        QCOMPARE(finished.size(), 0);
        QVERIFY(!panel->lastRun());
        QVERIFY(!w.overlay().hasMeasured());
        QVERIFY(runAndWait(panel, 1)); // and the new graph runs
        QCOMPARE(panel->lastRun()->graph, w.graph());
    }

    void cancelStopsARunWithinASecond()
    {
        COSTSCOPE_REQUIRE_SHARED();
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(openAndWait(w, sharedPath("data/onnx/light/light_vgg19.onnx")));
        panel->runsSpin()->setValue(1000); // minutes of work
        QSignalSpy finished(panel, &RunPanel::finished);
        QSignalSpy progressed(panel, &RunPanel::progressed);
        panel->runButton()->click();
        QVERIFY(progressed.wait(120000)); // compiled, warmed up, timed runs under way
        QTest::qWait(300);                // into the middle of a run
        QElapsedTimer sinceCancel;
        sinceCancel.start();
        panel->cancelButton()->click();
        QVERIFY(finished.wait(5000));
        const qint64 ms = sinceCancel.elapsed();
        qInfo("finished %lld ms after Cancel", static_cast<long long>(ms));
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(panel->status()->text().contains(QStringLiteral("cancelled")));
        QVERIFY(progressed.size() < 1000);
        QVERIFY(!panel->lastRun());
        QVERIFY(panel->runButton()->isEnabled());
    }

    void fitNeedsACalibratedProfile()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        ProfileTools* tools = panel->profileTools();
        QVERIFY(!tools->fitButton()->isEnabled()); // no runs yet
        QVERIFY(openAndWait(w, tinyTransformer()));
        QVERIFY(runAndWait(panel, 1));
        QVERIFY(tools->fitButton()->isEnabled());
        QSignalSpy fitted(tools, &ProfileTools::fitted);
        tools->fitButton()->click();
        QVERIFY(fitted.wait(60000));
        QCOMPARE(fitted.first().first().toBool(), false);
        QVERIFY(tools->status()->text().contains(QStringLiteral("calibrate the device first")));
    }

    void calibrationCanBeCancelled()
    {
        MainWindow w;
        ProfileTools* tools = w.findChild<RunPanel*>()->profileTools();
        QSignalSpy calibrated(tools, &ProfileTools::calibrated);
        tools->calibrateButton()->click();
        QVERIFY(tools->cancelButton()->isEnabled());
        QVERIFY(!w.findChild<RunPanel*>()->runButton()->isEnabled()); // no run while calibrating
        tools->cancelButton()->click();
        QVERIFY(calibrated.wait(30000));
        QCOMPARE(calibrated.first().first().toBool(), false);
        QVERIFY(!QFile::exists(m_home.filePath(QStringLiteral("costscope/profiles/calibrated-cpu.json"))));
        QVERIFY(w.findChild<RunPanel*>()->runButton()->isEnabled());
    }

    void calibratesTheSelectedVulkanDevice()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        ProfileTools* tools = panel->profileTools();
        const int vulkan = panel->deviceSelector()->findData(QStringLiteral("vulkan"), RunPanel::kBackendRole);
        if (vulkan < 0)
            QSKIP("no Vulkan device (lavapipe comes with mesa-vulkan-drivers)");
        panel->deviceSelector()->setCurrentIndex(vulkan);
        QVERIFY(tools->calibrateButton()->isEnabled());
        QVERIFY(tools->calibrateButton()->toolTip().contains(QStringLiteral("calibrated-vulkan")));
        calibrateQuick(tools);
        if (QTest::currentTestFailed())
            return;
        auto saved = loadProfileFile(m_home.filePath(QStringLiteral("costscope/profiles/calibrated-vulkan.json")).toStdString());
        QVERIFY(saved);
        QCOMPARE(saved->device, Device::Vulkan);
        QVERIFY(saved->source.find("Calibrate this device") != std::string::npos);
        QVERIFY(saved->matmulWaves.valid() && saved->convWaves.valid());
    }

    void calibrateThenFitCorrections()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        ProfileTools* tools = panel->profileTools();
        w.deviceSelector()->setCurrentText(QStringLiteral("Cuda"));
        calibrateQuick(tools);
        if (QTest::currentTestFailed())
            return;
        // The new profile is in the toolbar's device list at once (not after a restart), the choice unchanged.
        QVERIFY(w.deviceSelector()->findText(QStringLiteral("calibrated-cpu")) >= 0);
        QCOMPARE(w.deviceSelector()->currentText(), QStringLiteral("Cuda"));
        QVERIFY(profileForDeviceName("calibrated-cpu"));
        const QString path = m_home.filePath(QStringLiteral("costscope/profiles/calibrated-cpu.json"));
        auto saved = loadProfileFile(path.toStdString());
        QVERIFY(saved);
        QVERIFY(saved->source.find("Calibrate this device") != std::string::npos);
        QVERIFY(!saved->sgemmTable.empty());
        QVERIFY(saved->corrections.empty());

        // Runs now compare against the calibrated profile; two batches give the fit enough samples per class.
        QVERIFY(openAndWait(w, tinyTransformer()));
        for (int batch : {2, 16}) {
            w.batchSpin()->setValue(batch);
            QVERIFY(runAndWait(panel, 2));
            QCOMPARE(panel->lastRun()->costscopeProfile, std::string("calibrated-cpu"));
            // The calibration holds a host probe: the run re-times it and shows the host-adjusted model too.
            const auto run = panel->lastRun();
            QVERIFY(run->hostSpeed && run->hostSpeed->gemm > 0 && run->costscopeHostTotalNs > 0);
            QTableWidget* whole = panel->errorTable()->wholeTable();
            QCOMPARE(whole->rowCount(), 3);
            QVERIFY(near(cellValue(whole, RunErrorTable::CostscopeHostRow, RunErrorTable::WholeError),
                         errorPercent(run->costscopeHostTotalNs, double(run->whole.medianNs))));
            QVERIFY(panel->status()->text().contains(QStringLiteral("host-adjusted")));
            QCOMPARE(run->measuredRun().host.gemm, run->hostSpeed->gemm);
        }
        QSignalSpy fitted(tools, &ProfileTools::fitted);
        tools->fitButton()->click();
        QVERIFY(fitted.wait(60000));
        QVERIFY2(fitted.first().first().toBool(), qPrintable(tools->status()->text()));
        auto refit = loadProfileFile(path.toStdString());
        QVERIFY(refit);
        QVERIFY(!refit->corrections.empty());
        QCOMPARE(refit->sgemmGflops, saved->sgemmGflops); // the calibration stays, the corrections are added
        QVERIFY(tools->status()->text().contains(QStringLiteral("Per node: MAPE")));
        QVERIFY(tools->status()->text().contains(QStringLiteral("Whole graph: MAPE")));
        QVERIFY(tools->status()->text().contains(QStringLiteral("→")));
    }

    // A Ray sweep opened from its dialog (Compare in Run Panel) lands in the per-device table, each run a row.
    void showsASweepInThePerDeviceTable()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(panel);
        SweepCellResult ok, failed;
        ok.cell = {"cnn.json", 4, "cpu", "cpu", 0};
        ok.succeeded = true;
        ok.run = nlohmann::ordered_json::parse(R"({"whole": {"runs": 3, "median_ns": 2000000},
            "predicted": {"costscope": {"profile": "calibrated-cpu", "total_ns": 2500000}}})");
        failed.cell = {"cnn.json", 8, "cuda:0", "cuda", 0};
        failed.error = "no CUDA device on the worker";
        panel->showSweep(std::make_shared<const MultiDeviceRunReport>(sweepDeviceReport({ok, failed})));
        QCOMPARE(panel->multiDeviceView()->table()->rowCount(), 2);
        QVERIFY(panel->multiDeviceView()->isVisibleTo(panel));
        QVERIFY2(panel->status()->text().startsWith("Ray sweep: 1 of 2 run(s) measured"),
                 qPrintable(panel->status()->text()));
        QVERIFY(panel->multiDeviceView()->table()->item(0, MultiDeviceView::Predicted)->text().endsWith("s"));
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestRunPanel)
#include "test_run_panel.moc"
