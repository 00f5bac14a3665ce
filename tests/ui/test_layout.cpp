// SPDX-License-Identifier: MIT
// The layered layout, headless: geometry on the shared graphs, cycles, cancellation, relayout hints, speed.
#include "formats/graph_file.h"
#include "layout/group_tree.h"
#include "layout/layered_layout.h"
#include "layout_checks.h"
#include "test_paths.h"
#include <QElapsedTimer>
#include <QtTest>
#include <cmath>
#include <random>
#include <set>

using namespace costscope;
using namespace costscope::layout;

namespace {

LayoutInput inputFor(const Graph& g, Direction d = Direction::TopToBottom)
{
    const GroupTree tree = GroupTree::build(g);
    const ViewGraph v = ViewGraph::build(g, tree, std::vector<bool>(tree.groups.size(), false), true);
    LayoutInput in;
    in.direction = d;
    for (std::size_t u = 0; u < v.units.size(); ++u)
        in.nodes.push_back({100.0 + 10.0 * static_cast<double>(u % 5), 40.0 + 4.0 * static_cast<double>(u % 3), v.units[u].key});
    for (const auto& e : v.edges)
        in.edges.push_back({e.from, e.to});
    return in;
}

// A transformer-like random DAG: a long residual spine with blocks of branches and skip connections.
LayoutInput generated(int nodes, unsigned seed)
{
    std::mt19937 rng(seed);
    LayoutInput in;
    for (int i = 0; i < nodes; ++i)
        in.nodes.push_back({110, 44, std::to_string(i)});
    for (int i = 1; i < nodes; ++i) {
        in.edges.push_back({i - 1, i});
        if (i > 8 && rng() % 3 == 0)
            in.edges.push_back({i - 2 - static_cast<int>(rng() % 6), i});
    }
    return in;
}

// Bottleneck blocks as light ONNX exports store them: every Conv weight and each of a BatchNorm's four parameters
// comes through a Constant → ConstantOfShape chain, all chains listed before the ops; a skip edge runs from each
// block input to its Add, through a projection Conv + BatchNorm in a stage's first block.
LayoutInput residualBlocks(int stages, int blocksPerStage)
{
    std::vector<bool> isWeight;
    std::vector<LayoutInput::Edge> edges;
    const auto node = [&](bool weight) {
        isWeight.push_back(weight);
        return static_cast<int>(isWeight.size()) - 1;
    };
    const auto op = [&](std::initializer_list<int> inputs, int weights) {
        const int v = node(false);
        for (int u : inputs)
            edges.push_back({u, v});
        for (int w = 0; w < weights; ++w) {
            const int constant = node(true);
            const int shaped = node(true);
            edges.push_back({constant, shaped});
            edges.push_back({shaped, v});
        }
        return v;
    };
    const auto convBn = [&](int x) { return op({op({x}, 1)}, 4); };
    int x = node(false);
    for (int s = 0; s < stages; ++s)
        for (int b = 0; b < blocksPerStage; ++b) {
            const int h = convBn(op({convBn(op({convBn(x)}, 0))}, 0));
            x = op({op({h, b == 0 ? convBn(x) : x}, 0)}, 0); // Add, Relu
        }
    // The file order: weight chains first.
    std::vector<int> index(isWeight.size());
    int next = 0;
    for (bool weights : {true, false})
        for (std::size_t v = 0; v < isWeight.size(); ++v)
            if (isWeight[v] == weights)
                index[v] = next++;
    LayoutInput in;
    for (std::size_t v = 0; v < isWeight.size(); ++v)
        in.nodes.push_back({120, 44, std::to_string(v)});
    for (const auto& e : edges)
        in.edges.push_back({index[static_cast<std::size_t>(e.from)], index[static_cast<std::size_t>(e.to)]});
    return in;
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    void sharedGraphs_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("leftToRight");
        for (const char* f : {"data/rlx/cnn.hir.json", "data/rlx/mnist.hir.json", "data/rlx/options_bundle_only.hir.json"}) {
            QTest::newRow(f) << test::sharedPath(QString::fromLatin1(f)) << false;
            QTest::newRow((std::string(f) + " LR").c_str()) << test::sharedPath(QString::fromLatin1(f)) << true;
        }
        for (const char* f : {"data/onnx/light/light_resnet50.onnx", "data/onnx/light/light_inception_v1.onnx",
                              "data/onnx/transformers/gpt2_12l.onnx", "data/onnx/transformers/bert_12l.onnx"})
            QTest::newRow(f) << test::sharedPath(QString::fromLatin1(f)) << false;
        QTest::newRow("gpt2_12l LR") << test::sharedPath(QStringLiteral("data/onnx/transformers/gpt2_12l.onnx")) << true;
        QTest::newRow("tiny_transformer") << test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")) << false;
    }

    void sharedGraphs()
    {
        COSTSCOPE_REQUIRE_SHARED();
        QFETCH(QString, path);
        QFETCH(bool, leftToRight);
        auto loaded = loadGraphFile(path.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        const LayoutInput in = inputFor(loaded->graph, leftToRight ? Direction::LeftToRight : Direction::TopToBottom);
        QVERIFY(in.nodes.size() == loaded->graph.nodes.size());
        const LayoutResult r = layeredLayout(in);
        QCOMPARE(r.centers.size(), in.nodes.size());
        QCOMPARE(r.routes.size(), in.edges.size());
        QVERIFY2(test::layerOverlap(in, r).isEmpty(), qPrintable(test::layerOverlap(in, r)));
        QVERIFY2(test::edgeDirectionProblem(in, r).isEmpty(), qPrintable(test::edgeDirectionProblem(in, r)));
        QVERIFY(r.layerCount > 1);
        QVERIFY(r.width > 0 && r.height > 0);
    }

    // Folded into columns for a 870x580 window: no two boxes overlap, everything lies inside the drawing, edges
    // still leave their source's border and reach their target's, and the drawing fits at a zoom no smaller.
    void wrappedSharedGraphs_data() { sharedGraphs_data(); }
    void wrappedSharedGraphs()
    {
        COSTSCOPE_REQUIRE_SHARED();
        QFETCH(QString, path);
        QFETCH(bool, leftToRight);
        auto loaded = loadGraphFile(path.toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        LayoutInput in = inputFor(loaded->graph, leftToRight ? Direction::LeftToRight : Direction::TopToBottom);
        const LayoutResult strip = layeredLayout(in);
        in.wrapWidth = 870;
        in.wrapHeight = 580;
        const LayoutResult r = layeredLayout(in);
        QVERIFY2(test::boxesOverlap(in, r).isEmpty(), qPrintable(test::boxesOverlap(in, r)));
        QVERIFY2(test::outsideDrawing(in, r).isEmpty(), qPrintable(test::outsideDrawing(in, r)));
        QVERIFY2(test::routeEndsOffBorders(in, r).isEmpty(), qPrintable(test::routeEndsOffBorders(in, r)));
        QCOMPARE(r.layers, strip.layers);
        const auto fit = [](const LayoutResult& l) { return std::min({1.0, 870 / l.width, 580 / l.height}); };
        qInfo("%.0fx%.0f -> %.0fx%.0f: zoom to fit %.3f -> %.3f", strip.width, strip.height, r.width, r.height,
              fit(strip), fit(r));
        QVERIFY(fit(r) >= fit(strip) - 1e-9);
    }

    void longChainFoldsIntoColumns()
    {
        LayoutInput in;
        for (int i = 0; i < 120; ++i)
            in.nodes.push_back({120, 40, std::to_string(i)});
        for (int i = 1; i < 120; ++i)
            in.edges.push_back({i - 1, i});
        in.edges.push_back({0, 119}); // one long skip: it runs through every column
        in.wrapWidth = 870;
        in.wrapHeight = 580;
        const LayoutResult r = layeredLayout(in);
        QCOMPARE(r.columns.size(), in.nodes.size());
        const std::set<int> columns(r.columns.begin(), r.columns.end());
        QVERIFY2(columns.size() >= 4, qPrintable(QString::number(columns.size())));
        for (std::size_t i = 1; i < r.columns.size(); ++i) // a chain reads column after column, top to bottom
            QVERIFY(r.columns[i] > r.columns[i - 1]
                    || (r.columns[i] == r.columns[i - 1] && r.centers[i].y > r.centers[i - 1].y));
        QVERIFY(r.height <= 580 * r.width / 870 * 1.5); // about the window's shape, not a strip
        QVERIFY2(test::boxesOverlap(in, r).isEmpty(), qPrintable(test::boxesOverlap(in, r)));
        QVERIFY2(test::routeEndsOffBorders(in, r).isEmpty(), qPrintable(test::routeEndsOffBorders(in, r)));
        // A small graph that fits at zoom 1 stays one strip.
        LayoutInput small = in;
        small.nodes.resize(5);
        small.edges = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
        const LayoutResult s = layeredLayout(small);
        QVERIFY(s.columns.empty());
        for (const Point& c : s.centers)
            QCOMPARE(c.x, s.centers.front().x);
    }

    void cycleIsLaidOutWithoutHanging()
    {
        LayoutInput in;
        for (int i = 0; i < 4; ++i)
            in.nodes.push_back({80, 30, std::to_string(i)});
        in.edges = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 3}};
        const LayoutResult r = layeredLayout(in);
        QCOMPARE(r.centers.size(), std::size_t(4));
        QVERIFY(test::layerOverlap(in, r).isEmpty());
        QCOMPARE(r.routes[2].size() >= 2, true); // the reversed edge still has a route from 2 to 0
        QVERIFY(r.routes[2].front().y > r.routes[2].back().y);
    }

    void barycenterRemovesAvoidableCrossings()
    {
        // Two parallel chains whose initial order crosses: the sweeps must untangle them.
        LayoutInput in;
        for (int i = 0; i < 6; ++i)
            in.nodes.push_back({60, 30, std::to_string(i)});
        in.edges = {{0, 3}, {1, 2}, {2, 5}, {3, 4}};
        const LayoutResult r = layeredLayout(in);
        QCOMPARE(r.crossings, 0LL);
        QCOMPARE(countRouteCrossings(r.routes), 0LL);
    }

    void longEdgesFromOneNodeShareATrunk()
    {
        // A constant used at three depths of a chain: its long edges share their dummies (one line that branches
        // off just above each use) instead of running as parallel lines.
        LayoutInput in;
        for (int i = 0; i < 8; ++i)
            in.nodes.push_back({60, 30, std::to_string(i)});
        for (int i = 1; i < 7; ++i)
            in.edges.push_back({i - 1, i});
        in.edges.push_back({7, 1});
        in.edges.push_back({7, 4});
        in.edges.push_back({7, 6});
        const LayoutResult r = layeredLayout(in);
        const auto& toFour = r.routes[7];
        const auto& toSix = r.routes[8];
        QCOMPARE(toFour.size(), std::size_t(5)); // source, dummies in layers 1 to 3, target
        QCOMPARE(toSix.size(), std::size_t(7));
        for (std::size_t k = 0; k + 1 < toFour.size(); ++k) {
            QCOMPARE(toFour[k].x, toSix[k].x);
            QCOMPARE(toFour[k].y, toSix[k].y);
        }
        QCOMPARE(countRouteCrossings(r.routes), 0LL);
        QVERIFY(test::edgeDirectionProblem(in, r).isEmpty());
    }

    void coincidingSegmentsCrossOnce()
    {
        // Two routes along one trunk are one drawn line: a third edge across it is one crossing (two per edge).
        const std::vector<std::vector<Point>> routes = {
            {{0, 0}, {0, 10}, {0, 20}}, {{0, 0}, {0, 10}, {5, 20}}, {{-5, 4}, {5, 6}}};
        QCOMPARE(countRouteCrossings(routes), 1LL);
        QCOMPARE(countRouteCrossings(routes, Coinciding::PerEdge), 2LL);
    }

    void weightChainsStayOffResidualSkips()
    {
        // The weight chains of each op must end up beside the op, away from the skip edge: a drawing without
        // crossings exists (dot finds it), and median sweeps alone leave chains stuck on the wrong side.
        const LayoutInput in = residualBlocks(4, 3);
        const LayoutResult r = layeredLayout(in);
        QCOMPARE(r.crossings, 0LL);
        QCOMPARE(countRouteCrossings(r.routes), 0LL);
        QVERIFY(test::layerOverlap(in, r).isEmpty());
    }

    void resnetWithoutCrossings()
    {
        COSTSCOPE_REQUIRE_SHARED();
        const QString path = test::sharedPath(QStringLiteral("data/onnx/light/light_resnet50.onnx"));
        auto loaded = loadGraphFile(path.toStdString());
        QVERIFY(loaded.ok());
        const LayoutResult r = layeredLayout(inputFor(loaded->graph));
        QCOMPARE(countRouteCrossings(r.routes), 0LL); // as dot draws it
    }

    void cancelStopsEarly()
    {
        const LayoutInput in = generated(2000, 1);
        std::atomic<bool> cancel{true};
        const LayoutResult r = layeredLayout(in, nullptr, &cancel);
        QVERIFY(r.cancelled);
        QCOMPARE(r.sweeps, 0);
    }

    void hintKeepsLayersOfUnchangedNodes()
    {
        LayoutInput in = generated(300, 2);
        const LayoutResult first = layeredLayout(in);
        const LayoutHint hint = first.hint();
        // A new node inserted at the top pushes nothing up: every old node keeps at least its old layer.
        in.nodes.push_back({110, 44, "new"});
        in.edges.push_back({static_cast<int>(in.nodes.size()) - 1, 5});
        const LayoutResult second = layeredLayout(in, &hint);
        for (std::size_t i = 0; i < first.layers.size(); ++i)
            QVERIFY(second.layers[i] >= first.layers[i]);
        QVERIFY(second.sweeps <= first.sweeps + 1);
    }

    void groupsChunkAndCollapse()
    {
        Graph g;
        for (int i = 0; i < 900; ++i) {
            Node n;
            n.id = i;
            n.op = Op::make(OpKind::Activation);
            n.scope = "blk";
            if (i > 0)
                n.inputs = {i - 1};
            n.shape = Shape::of({4});
            g.add(std::move(n));
        }
        const GroupTree tree = GroupTree::build(g, 400);
        const int blk = tree.find("blk");
        QVERIFY(blk > 0);
        QCOMPARE(tree.groups[static_cast<std::size_t>(blk)].children.size(), std::size_t(3)); // 400 + 400 + 100
        QCOMPARE(tree.groups[static_cast<std::size_t>(blk)].allNodes.size(), std::size_t(900));
        std::vector<bool> collapsed(tree.groups.size(), false);
        QCOMPARE(ViewGraph::build(g, tree, collapsed, true).units.size(), std::size_t(900));
        collapsed[static_cast<std::size_t>(blk)] = true;
        const ViewGraph v = ViewGraph::build(g, tree, collapsed, true);
        QCOMPARE(v.units.size(), std::size_t(1));
        QVERIFY(v.edges.empty());
        // Budget 100: collapsing the three chunks is enough; budget 2: only the whole group is.
        QCOMPARE(ViewGraph::build(g, tree, initialCollapse(tree, g.nodes.size(), 100), true).units.size(), std::size_t(3));
        QCOMPARE(ViewGraph::build(g, tree, initialCollapse(tree, g.nodes.size(), 2), true).units.size(), std::size_t(1));
    }

    void fiftyThousandNodesWellUnderFiveSeconds()
    {
        const LayoutInput in = generated(50000, 3);
        QElapsedTimer t;
        t.start();
        const LayoutResult r = layeredLayout(in);
        const qint64 ms = t.elapsed();
        qInfo("50 000 nodes, %zu edges: %lld ms, %d layers, %lld crossings, %d sweeps", in.edges.size(), ms,
              r.layerCount, r.crossings, r.sweeps);
        QVERIFY2(ms < 5000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
        QVERIFY(test::layerOverlap(in, r).isEmpty());
        QVERIFY(test::edgeDirectionProblem(in, r).isEmpty());
        // Folded into columns as the canvas asks: the fold adds little (it costs O(layers) per column count tried).
        LayoutInput folded = in;
        folded.wrapWidth = 870;
        folded.wrapHeight = 580;
        t.restart();
        const LayoutResult w = layeredLayout(folded);
        const qint64 foldedMs = t.elapsed();
        qInfo("folded: %lld ms, %zu columns", foldedMs, std::set<int>(w.columns.begin(), w.columns.end()).size());
        QVERIFY2(foldedMs < 5000, qPrintable(QStringLiteral("took %1 ms").arg(foldedMs)));
        QVERIFY(!w.columns.empty());
    }
};

QTEST_GUILESS_MAIN(TestLayout)
#include "test_layout.moc"
