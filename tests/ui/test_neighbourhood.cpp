// SPDX-License-Identifier: MIT
// The neighbourhood view: which nodes lie within N hops (headless), and on the canvas: the context menu shows a
// node's neighbourhood, the bar's hop spin box widens and narrows it, and Show all (the bar's button, the canvas
// menu's action) brings the whole graph back. The boxes on show are read back from the scene.
#include "canvas/neighbourhood_bar.h"
#include "canvas_driving.h"
#include "edit/graph_builder.h"
#include "layout/neighbourhood.h"
#include "test_paths.h"
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

using namespace costscope;
using test::firstOp;
using test::openAndWait;
using test::triggerContextEntry;

namespace {
std::size_t countOf(const std::vector<bool>& marks)
{
    return static_cast<std::size_t>(std::count(marks.begin(), marks.end(), true));
}
} // namespace

class TestNeighbourhood : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // a → b → c → d, and e → c: hops follow edges both ways.
    void hopsFollowEdgesBothWays()
    {
        edit::GraphBuilder b("chain");
        const NodeId a = b.leaf(OpKind::Input, "a", Shape::of({4}));
        const NodeId e = b.leaf(OpKind::Input, "e", Shape::of({4}));
        const NodeId bb = b.sub(OpKind::Activation, "Relu", {a});
        const NodeId c = b.sub(OpKind::Binary, "Add", {bb, e});
        const NodeId d = b.sub(OpKind::Activation, "Relu", {c});
        const Graph g = b.finish({d});
        const auto at = [&](NodeId id) { return *g.indexOf(id); };
        const auto zero = neighbourhood(g, at(c), 0);
        QCOMPARE(countOf(zero), std::size_t(1));
        QVERIFY(zero[at(c)]);
        const auto one = neighbourhood(g, at(c), 1);
        QCOMPARE(countOf(one), std::size_t(4)); // b, e, d and c
        QVERIFY(one[at(bb)] && one[at(e)] && one[at(d)] && !one[at(a)]);
        QCOMPARE(countOf(neighbourhood(g, at(c), 2)), std::size_t(5));
        QVERIFY(neighbourhood(g, g.nodes.size(), 1).empty());
    }

    void contextMenuShowsANeighbourhoodAndShowAllReturns()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        const Graph& g = *w.graph();
        const int all = w.scene()->visibleNodeItemCount();
        QCOMPARE(all, static_cast<int>(g.nodes.size())); // a small graph opens with every group open
        auto* bar = w.canvas()->findChild<NeighbourhoodBar*>();
        QVERIFY(bar && !bar->isVisible());
        const auto centre = static_cast<std::size_t>(firstOp(g, OpKind::MatMul));

        QVERIFY(triggerContextEntry(w, centre, QStringLiteral("Show neighbourhood (2 hops)")));
        QCOMPARE(w.scene()->neighbourhoodCentre(), static_cast<int>(centre));
        const auto two = neighbourhood(g, centre, 2);
        QCOMPARE(w.scene()->visibleNodeItemCount(), static_cast<int>(countOf(two)));
        QVERIFY(w.scene()->visibleNodeItemCount() < all);
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            QCOMPARE(w.scene()->itemForNode(i) != nullptr, bool(two[i]));
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->label()->text(),
                 QStringLiteral("Neighbourhood of MatMul: %1 of %2 nodes").arg(countOf(two)).arg(g.nodes.size()));
        // Framed: every box of the neighbourhood is in sight.
        const QRectF seen = w.canvas()->mapToScene(w.canvas()->viewport()->rect()).boundingRect();
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            if (const NodeItem* item = w.scene()->itemForNode(i))
                QVERIFY(seen.contains(item->sceneBoundingRect().center()));

        // The spin box redraws it with another hop count.
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        bar->hops()->setValue(1);
        QVERIFY(ready.wait(30000));
        QCOMPARE(w.scene()->visibleNodeItemCount(), static_cast<int>(countOf(neighbourhood(g, centre, 1))));
        QVERIFY(w.scene()->visibleNodeItemCount() < static_cast<int>(countOf(two)));
        QVERIFY(bar->label()->text().contains(QStringLiteral(": %1 of").arg(countOf(neighbourhood(g, centre, 1)))));

        // Show all: the bar's button.
        QTest::mouseClick(bar->showAllButton(), Qt::LeftButton);
        QVERIFY(ready.wait(30000));
        QCOMPARE(w.scene()->visibleNodeItemCount(), all);
        QVERIFY(!bar->isVisible());
        QCOMPARE(w.scene()->neighbourhoodCentre(), -1);

        // The context menu now offers one hop, and Show all comes back through the window's action too.
        QVERIFY(triggerContextEntry(w, centre, QStringLiteral("Show neighbourhood (1 hop)")));
        QCOMPARE(w.scene()->visibleNodeItemCount(), static_cast<int>(countOf(neighbourhood(g, centre, 1))));
        auto* showAll = w.findChild<QAction*>(QStringLiteral("actionShowAllNodes"));
        QVERIFY(showAll && showAll->isEnabled());
        showAll->trigger();
        QVERIFY(ready.wait(30000));
        QCOMPARE(w.scene()->visibleNodeItemCount(), all);
        QVERIFY(!showAll->isEnabled());
    }
};

QTEST_MAIN(TestNeighbourhood)
#include "test_neighbourhood.moc"
