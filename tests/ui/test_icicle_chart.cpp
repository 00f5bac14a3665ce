// SPDX-License-Identifier: MIT
// The Icicle dock on the cnn example: the whole graph's bar holds the predicted time of every node, each bar lies
// inside its parent, and clicks on a node's and a scope's bar select the node on the canvas.
#include "canvas/graph_scene.h"
#include "charts/icicle_chart.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "test_paths.h"
#include <QDockWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

using namespace costscope;

class TestIcicleChart : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void barsHoldTheCostsAndClicksSelect()
    {
        MainWindow w;
        w.setCostProvider(makeCostProvider());
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* chart = w.findChild<IcicleChart*>();
        QVERIFY(chart);
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("icicleDock"));
        QVERIFY(dock);
        dock->raise();
        QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.openFile(test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json")));
        QVERIFY(ready.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!chart->cells().empty(), 60000);
        QTRY_VERIFY(chart->isVisible() && chart->width() > 100);

        const GraphCost* cost = w.overlay().cost();
        QVERIFY(cost);
        double sum = 0;
        for (const NodeCost& c : cost->nodes)
            sum += c.skipped ? 0 : c.totalNs;
        const auto& cells = chart->cells();
        QVERIFY(qFuzzyCompare(cells.front().ns, sum));
        QCOMPARE(chart->cellRect(0).width(), double(chart->width()));
        for (std::size_t i = 1; i < cells.size(); ++i) {
            const QRectF r = chart->cellRect(i);
            bool inParent = false;
            for (std::size_t p = 0; p < cells.size(); ++p)
                if (cells[p].row == cells[i].row - 1 && cells[p].group >= 0
                    && chart->cellRect(p).adjusted(-0.01, 0, 0.01, 0).left() <= r.left()
                    && r.right() <= chart->cellRect(p).right() + 0.01)
                    inParent = true;
            QVERIFY2(inParent, cells[i].label.c_str());
        }

        // The widest node bar: clicked, its node is selected on the canvas.
        std::size_t widest = 0;
        for (std::size_t i = 1; i < cells.size(); ++i)
            if (cells[i].group < 0 && (cells[widest].group >= 0 || cells[i].ns > cells[widest].ns))
                widest = i;
        QVERIFY(cells[widest].group < 0);
        QTest::mouseClick(chart, Qt::LeftButton, {}, chart->cellRect(widest).center().toPoint());
        QCOMPARE(w.scene()->selectedNodeId(), std::optional(w.graph()->nodes[cells[widest].node].id));

        // The whole graph's bar selects the costliest node of all.
        std::size_t costliest = 0;
        for (std::size_t n = 0; n < cost->nodes.size(); ++n)
            if (cost->nodes[n].totalNs > cost->nodes[costliest].totalNs)
                costliest = n;
        w.scene()->clearSelection();
        QTest::mouseClick(chart, Qt::LeftButton, {}, chart->cellRect(0).center().toPoint());
        QCOMPARE(w.scene()->selectedNodeId(), std::optional(w.graph()->nodes[costliest].id));
    }
};

QTEST_MAIN(TestIcicleChart)
#include "test_icicle_chart.moc"
