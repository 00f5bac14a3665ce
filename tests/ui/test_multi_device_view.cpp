// SPDX-License-Identifier: MIT
// The Run panel's "All … devices": the per-device table, spread and bar chart of a run on every device of a fake
// backend of three (two of one model, one that loses its device), read back from the widgets; the panel itself
// offers the item for GPU backends only and, where Vulkan has devices here (lavapipe), runs it end to end.
#include "formats/graph_file.h"
#include "jobs/all_devices_job.h"
#include "main_window.h"
#include "panels/multi_device_view.h"
#include "panels/run_panel.h"
#include "test_paths.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <qcustomplot.h>

#include <chrono>
#include <thread>

using namespace costscope;
using namespace costscope::test;

namespace {
// A plan that takes 2 ms (device 0), 3 ms (device 1) a run, or loses its device on the first run.
class FakePlan : public ExecutablePlan {
public:
    explicit FakePlan(DeviceIndex device) : m_device(device) {}
    Result<bool> uploadParameters() override { return true; }
    Result<bool> setInputs(const std::vector<HostTensor>&) override { return true; }
    Result<bool> run(const std::atomic<bool>*) override
    {
        if (m_device == 2)
            return Diagnostic::error("device lost (Xid 79)");
        std::this_thread::sleep_for(std::chrono::milliseconds(2 + m_device));
        return true;
    }
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>*) override
    {
        return std::vector<NodeTiming>{};
    }
    Result<std::vector<HostTensor>> readOutputs() const override { return std::vector<HostTensor>{}; }

private:
    DeviceIndex m_device;
};

class FakeBackend : public Backend {
public:
    std::string name() const override { return "fake"; }
    std::vector<DeviceInfo> devices() const override
    {
        std::vector<DeviceInfo> out;
        for (DeviceIndex i = 0; i < 3; ++i)
            out.push_back({"fake", i, i < 2 ? "Fake A100" : "Fake T4", 1 << 30, 1,
                           "0000:0" + std::to_string(i) + ":00.0", 1000, 2000});
        return out;
    }
    Result<std::unique_ptr<ExecutablePlan>> compile(const Graph&, const Bindings&, DeviceIndex device) override
    {
        return std::unique_ptr<ExecutablePlan>(std::make_unique<FakePlan>(device));
    }
};

std::shared_ptr<const Graph> cnn()
{
    auto loaded = loadGraphFile(sourcePath("resources/examples/cnn.hir.json").toStdString());
    return loaded ? std::make_shared<const Graph>(std::move(loaded->graph)) : nullptr;
}

QString cell(const QTableWidget* t, int row, MultiDeviceView::Column c)
{
    return t->item(row, c) ? t->item(row, c)->text() : QString();
}
} // namespace

class TestMultiDeviceView : public QObject {
    Q_OBJECT
private slots:
    void tableChartAndSpreadShowEveryDevice()
    {
        auto graph = cnn();
        QVERIFY(graph);
        FakeBackend backend;
        auto report = runOnAllDevicesOf({graph, {}, "fake", 5}, backend, nullptr);
        QVERIFY2(report, report ? "" : report.error().message.c_str());
        MultiDeviceView view;
        QAbstractItemModelTester tester(view.table()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.showReport(std::make_shared<const MultiDeviceRunReport>(*report));
        const QTableWidget* t = view.table();
        QCOMPARE(t->rowCount(), 3);
        for (int row = 0; row < 3; ++row)
            QCOMPARE(cell(t, row, MultiDeviceView::Device), QStringLiteral("fake:%1").arg(row));
        QCOMPARE(cell(t, 0, MultiDeviceView::Model), QString("Fake A100"));
        QCOMPARE(cell(t, 1, MultiDeviceView::PciBus), QString("0000:01:00.0"));
        for (int row : {0, 1}) {
            QVERIFY2(cell(t, row, MultiDeviceView::Isolated).endsWith("ms"),
                     qPrintable(cell(t, row, MultiDeviceView::Isolated)));
            QVERIFY(cell(t, row, MultiDeviceView::Concurrent).endsWith("ms"));
            QVERIFY(cell(t, row, MultiDeviceView::Contention).endsWith("%"));
            QVERIFY(cell(t, row, MultiDeviceView::Error).endsWith("%"));
            QVERIFY(!cell(t, row, MultiDeviceView::Profile).isEmpty());
            QCOMPARE(cell(t, row, MultiDeviceView::Status), QString("ok"));
        }
        // Every device is predicted for the same graph: the predictions are shown, the measurements differ.
        QCOMPARE(cell(t, 0, MultiDeviceView::Predicted), cell(t, 1, MultiDeviceView::Predicted));
        QVERIFY(cell(t, 0, MultiDeviceView::Predicted) != QString("–"));
        // The lost device is named with its error and keeps no times; the others' results stand.
        QCOMPARE(cell(t, 2, MultiDeviceView::Isolated), QString("–"));
        QVERIFY2(cell(t, 2, MultiDeviceView::Status).contains("FAILED")
                     && cell(t, 2, MultiDeviceView::Status).contains("device lost (Xid 79)"),
                 qPrintable(cell(t, 2, MultiDeviceView::Status)));
        const QString spread = view.spreadLabel()->text();
        QVERIFY2(spread.contains("Spread of Fake A100 (2 device") && spread.contains("fake:2 (Fake T4) failed"),
                 qPrintable(spread));
        QVERIFY2(!spread.contains("Spread of Fake T4"), qPrintable(spread)); // it never ran
        // Isolated, concurrent and predicted bars per device; the failed one at zero, labelled.
        QCustomPlot* chart = view.chart();
        QCOMPARE(chart->plottableCount(), 3);
        auto* isolated = qobject_cast<QCPBars*>(chart->plottable(0));
        QVERIFY(isolated);
        QCOMPARE(isolated->data()->size(), 3);
        QVERIFY(isolated->data()->at(1)->value > isolated->data()->at(0)->value); // 3 ms against 2 ms
        QCOMPARE(isolated->data()->at(2)->value, 0.0);
        auto ticker = chart->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(3.0), QString("fake:2 (failed)"));
        // The pick among the GPUs: RLX's rule over the two that ran (equal predictions: the first), the measured
        // fastest beside it; the lost device is in neither.
        const QString pick = view.pickLabel()->text();
        QVERIFY2(pick.contains("Pick: fake:0") && pick.contains("Fake A100, PCI 0000:00:00.0"), qPrintable(pick));
        // The sleeps (2 and 3 ms) can trade places on a loaded machine: the fastest is whichever median is lower.
        const bool firstFaster = report->devices[0].run.isolated->medianNs <= report->devices[1].run.isolated->medianNs;
        QVERIFY2(pick.contains(firstFaster ? "measured fastest: fake:0" : "measured fastest: fake:1"),
                 qPrintable(pick));
        QVERIFY2(!pick.contains("fake:2"), qPrintable(pick));
        QVERIFY(t->item(0, MultiDeviceView::Device)->font().bold());
        QVERIFY(!t->item(1, MultiDeviceView::Device)->font().bold());
        const RunDevicePick byRule = pickAmongRunDevices(*report);
        QCOMPARE(byRule.estimates.size(), std::size_t(2));
        QCOMPARE(byRule.fastestMeasured, std::optional<std::size_t>(firstFaster ? 0 : 1));
        view.showReport(nullptr);
        QVERIFY(view.pickLabel()->text().isEmpty());
        QCOMPARE(view.table()->rowCount(), 0);
        QCOMPARE(chart->plottableCount(), 0);
    }

    void noDeviceIsAnError()
    {
        class NoDevices : public FakeBackend {
            std::vector<DeviceInfo> devices() const override { return {}; }
        } backend;
        auto report = runOnAllDevicesOf({cnn(), {}, "fake", 2}, backend, nullptr);
        QVERIFY(!report);
        QVERIFY(report.error().message.find("no devices") != std::string::npos);
    }

    void runPanelOffersAllDevicesOfGpuBackends()
    {
        MainWindow w;
        auto* panel = w.findChild<RunPanel*>();
        QVERIFY(panel);
        QComboBox* devices = panel->deviceSelector();
        int all = -1;
        for (int i = 0; i < devices->count(); ++i)
            if (devices->itemData(i, RunPanel::kDeviceIndexRole).toInt() == RunPanel::kAllDevices) {
                QVERIFY(devices->itemData(i, RunPanel::kBackendRole).toString() != "cpu");
                QVERIFY(devices->itemText(i).startsWith("All "));
                if (devices->itemData(i, RunPanel::kBackendRole).toString() == "vulkan")
                    all = i;
            }
        if (all < 0)
            QSKIP("no Vulkan device here: the panel's end-to-end run needs one (lavapipe will do)");
        QSignalSpy loaded(&w, &MainWindow::graphLoaded);
        w.openFile(sourcePath("resources/examples/cnn.hir.json"));
        QVERIFY(loaded.wait(60000));
        devices->setCurrentIndex(all);
        panel->runsSpin()->setValue(2);
        QSignalSpy finished(panel, &RunPanel::finished);
        panel->runButton()->click();
        QVERIFY(finished.wait(300000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(panel->status()->text()));
        const QTableWidget* t = panel->multiDeviceView()->table();
        int vulkanDevices = 0;
        for (const auto& b : availableBackends())
            if (b->name() == "vulkan")
                vulkanDevices = static_cast<int>(b->devices().size());
        QCOMPARE(t->rowCount(), vulkanDevices);
        QCOMPARE(cell(t, 0, MultiDeviceView::Device), QString("vulkan:0"));
        QVERIFY(cell(t, 0, MultiDeviceView::Isolated).endsWith("s"));
    }
};

QTEST_MAIN(TestMultiDeviceView)
#include "test_multi_device_view.moc"
