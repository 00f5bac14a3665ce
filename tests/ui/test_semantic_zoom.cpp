// SPDX-License-Identifier: MIT
// Semantic zoom: the canvas is zoomed to several levels and each box is painted there (rendered offscreen); the
// detail level a box painted and the cost it says are read back. Also measures the zoom a fitted ~300-node graph
// gets and what its boxes say there.
#include "canvas_driving.h"
#include "edit/graph_builder.h"
#include "formats/graph_file.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "test_paths.h"
#include <QImage>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;
using test::firstOp;
using test::openAndWait;

namespace {
// Paints what the canvas shows now, as the screen would: every visible item paints at the view's zoom.
void render(CanvasView* canvas)
{
    QImage image(canvas->viewport()->size(), QImage::Format_ARGB32);
    QPainter painter(&image);
    canvas->render(&painter);
}

// 37 residual MLP blocks, no scopes: 297 nodes in one flat, deep graph.
Graph threeHundredNodes()
{
    edit::GraphBuilder b("mlp_stack");
    NodeId x = b.leaf(OpKind::Input, "x", Shape::of({8, 64}));
    for (int i = 0; i < 37; ++i) {
        const std::string p = std::to_string(i);
        const NodeId up = b.op(OpKind::MatMul, {x, b.leaf(OpKind::Param, p + "_up", Shape::of({64, 64}))});
        const NodeId biased = b.sub(OpKind::Binary, "Add", {up, b.leaf(OpKind::Param, p + "_b", Shape::of({64}))});
        const NodeId act = b.sub(OpKind::Activation, "Gelu", {biased});
        const NodeId down = b.op(OpKind::MatMul, {act, b.leaf(OpKind::Param, p + "_down", Shape::of({64, 64}))});
        x = b.sub(OpKind::Binary, "Add", {down, x});
    }
    return b.finish({x});
}
} // namespace

class TestSemanticZoom : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void levelsFollowTheZoom()
    {
        QCOMPARE(NodeItem::detailForZoom(1.0), NodeItem::Detail::Full);
        QCOMPARE(NodeItem::detailForZoom(0.5), NodeItem::Detail::OpAndCost);
        QCOMPARE(NodeItem::detailForZoom(0.3), NodeItem::Detail::OpName);
        QCOMPARE(NodeItem::detailForZoom(0.1), NodeItem::Detail::Box);
    }

    void boxesSayLessAsTheCanvasZoomsOut()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setCostProvider(makeCostProvider());
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() != nullptr; }, 30000));
        const Graph& g = *w.graph();
        const int matmul = firstOp(g, OpKind::MatMul);
        QVERIFY(matmul >= 0);
        NodeItem* item = w.scene()->itemForNode(static_cast<std::size_t>(matmul));
        QVERIFY(item && item->style() == NodeItem::Style::Op);
        // The box says the node's predicted time, as the cost model gave it.
        QCOMPARE(item->cost(), formatNs(w.overlay().cost()->nodes[static_cast<std::size_t>(matmul)].totalNs));
        QVERIFY(!item->cost().isEmpty());
        QCOMPARE(item->content().op, QStringLiteral("MatMul"));

        const std::pair<double, NodeItem::Detail> levels[] = {{1.0, NodeItem::Detail::Full},
                                                              {0.55, NodeItem::Detail::OpAndCost},
                                                              {0.3, NodeItem::Detail::OpName},
                                                              {0.1, NodeItem::Detail::Box}};
        for (const auto& [zoom, expected] : levels) {
            w.canvas()->zoomBy(zoom / w.canvas()->zoom());
            QCOMPARE(w.canvas()->zoom(), zoom);
            w.canvas()->centerOn(item);
            render(w.canvas());
            QCOMPARE(item->paintedDetail(), expected);
        }
    }

    // What a fitted graph of about 300 nodes says: the zoom fit gives is measured and printed, and the boxes paint at
    // the level that zoom calls for.
    void fittedGraphOfThreeHundredNodes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("stack.costscope"));
        const Graph graph = threeHundredNodes();
        QCOMPARE(graph.nodes.size(), std::size_t(297));
        QVERIFY(saveGraphFile(graph, path.toStdString()));
        for (const bool leftToRight : {false, true}) {
            MainWindow w;
            w.resize(1600, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(openAndWait(w, path));
            w.scene()->setDirection(leftToRight ? layout::Direction::LeftToRight : layout::Direction::TopToBottom);
            w.scene()->setShowParams(false);
            QTRY_COMPARE_WITH_TIMEOUT(w.scene()->visibleNodeItemCount(), 297 - 37 * 3, 60000); // no Param boxes
            w.canvas()->fitAll();
            render(w.canvas());
            NodeItem* item = w.scene()->itemForNode(static_cast<std::size_t>(firstOp(*w.graph(), OpKind::MatMul)));
            QVERIFY(item);
            qInfo("297 nodes, %s, params hidden: fit zoom %.3f, %d boxes, detail %d",
                  leftToRight ? "left to right" : "top to bottom", w.canvas()->zoom(),
                  w.scene()->visibleNodeItemCount(), static_cast<int>(item->paintedDetail()));
            QCOMPARE(item->paintedDetail(), NodeItem::detailForZoom(w.canvas()->zoom()));
        }
    }

    // GPT-2 (12 layers) with every group collapsed, then opened level by level: the zoom fit gives at each level, and
    // what a box says there.
    void fittedGpt2ByLevel()
    {
        COSTSCOPE_REQUIRE_SHARED();
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, test::sharedPath(QStringLiteral("data/onnx/transformers/gpt2_12l.onnx"))));
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.scene()->collapseAll();
        QVERIFY(ready.wait(60000));
        for (int depth = 1; depth <= 3; ++depth) {
            w.canvas()->fitAll();
            render(w.canvas());
            int groups = 0;
            for (const auto& unit : w.scene()->viewGraph().units)
                groups += unit.isGroup;
            qInfo("gpt2_12l, groups open above depth %d: %d boxes (%d groups), fit zoom %.3f, detail %d", depth,
                  w.scene()->visibleNodeItemCount(), groups, w.canvas()->zoom(),
                  static_cast<int>(NodeItem::detailForZoom(w.canvas()->zoom())));
            bool opened = false;
            for (std::size_t g = 1; g < w.scene()->groups().groups.size(); ++g)
                if (w.scene()->groups().groups[g].depth == depth && w.scene()->isGroupCollapsed(static_cast<int>(g))) {
                    w.scene()->setGroupCollapsed(static_cast<int>(g), false);
                    opened = true;
                }
            if (opened)
                QVERIFY(ready.wait(60000));
        }
    }
};

QTEST_MAIN(TestSemanticZoom)
#include "test_semantic_zoom.moc"
