// SPDX-License-Identifier: MIT
// The Roofline dock: the points it draws are rooflineOf's, clicking one selects its node, and it follows the window.
#include "charts/roofline_chart.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include "test_paths.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>
#include <qcustomplot.h>

using namespace costscope;
using namespace costscope::test;

namespace {
QCPGraph* graphNamed(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name)
            return plot->graph(i);
    return nullptr;
}

Roofline threeNodes()
{
    Roofline r;
    r.peakGflops = 1000;
    r.bandwidthGBps = 100;
    r.points = {{4, 40, 50.0, 800.0, 400.0}, {7, 70, 0.5, 40.0, std::nullopt}, {9, 90, 5.0, 300.0, std::nullopt}};
    return r;
}
} // namespace

class TestRooflineChart : public QObject {
    Q_OBJECT
private slots:
    void drawsEveryPointUnderTheRoofs()
    {
        RooflineChart chart;
        chart.showRoofline(threeNodes(), QStringLiteral("Test"));
        QCPGraph* predicted = graphNamed(chart.plot(), QStringLiteral("predicted"));
        QCPGraph* measured = graphNamed(chart.plot(), QStringLiteral("measured"));
        QVERIFY(predicted && measured);
        QCOMPARE(predicted->dataCount(), 3);
        QCOMPARE(measured->dataCount(), 1);
        // Sorted by intensity, each point names its node.
        QCOMPARE(predicted->data()->at(0)->key, 0.5);
        QCOMPARE(chart.nodeAt(predicted, 0), std::optional<NodeId>(70)); // by id (70), not position (7)
        QCOMPARE(chart.nodeAt(predicted, 2), std::optional<NodeId>(40));
        QCOMPARE(measured->data()->at(0)->value, 400.0);
        QCOMPARE(chart.nodeAt(measured, 0), std::optional<NodeId>(40));
        QCOMPARE(chart.nodeAt(measured, 1), std::nullopt);
        // The roof bends at the ridge (10 FLOP/B) into the peak.
        QCPGraph* roof = chart.plot()->graph(chart.plot()->graphCount() - 1);
        QCOMPARE(roof->dataCount(), 3);
        QCOMPARE(roof->data()->at(1)->key, 10.0);
        QCOMPARE(roof->data()->at(1)->value, 1000.0);
        chart.showRoofline({}, {});
        QCOMPARE(chart.plot()->graphCount(), 0);
    }

    void clickingAPointReportsItsNode()
    {
        RooflineChart chart;
        chart.resize(640, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showRoofline(threeNodes(), QStringLiteral("Test"));
        QSignalSpy selected(&chart, &RooflineChart::nodeSelected);
        QCustomPlot* plot = chart.plot();
        const QPoint at(int(plot->xAxis->coordToPixel(5.0)), int(plot->yAxis->coordToPixel(300.0)));
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().first().toLongLong(), 90);
    }

    void followsTheWindowsCosts()
    {
        MainWindow w;
        auto* chart = w.findChild<RooflineChart*>();
        QVERIFY(chart);
        w.setCostProvider(makeCostProvider());
        QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
        w.openFile(sourcePath(QStringLiteral("resources/examples/cnn.hir.json")));
        QVERIFY(costs.wait(60000));
        const auto profile = profileForDeviceName(w.deviceSelector()->currentText().toStdString());
        QVERIFY(profile);
        // The Costscope model's FLOPs and bytes, whichever model the canvas shows.
        const Roofline expected = rooflineOf(
            makeCostModel("costscope")->estimate(*w.graph(), *profile, w.bindingsEditor()->bindings()), *profile);
        QVERIFY(expected.points.size() > 5);
        QTRY_COMPARE(chart->roofline().points.size(), expected.points.size());
        QCOMPARE(chart->roofline().peakGflops, expected.peakGflops);
        QCOMPARE(graphNamed(chart->plot(), QStringLiteral("predicted"))->dataCount(), int(expected.points.size()));
    }
};

QTEST_MAIN(TestRooflineChart)
#include "test_roofline_chart.moc"
