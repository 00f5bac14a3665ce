// SPDX-License-Identifier: MIT
#include "analysis/rlx_profiles.h"
#include "formats/graph_file.h"
#include "edit/fuse_nodes.h"
#include "interop/graph_diff.h"
#include "test_paths.h"

#include <QtTest>

using namespace costscope;

namespace {

Graph example()
{
    auto loaded = loadGraphFile(test::sourcePath("resources/examples/tiny_transformer.hir.json").toStdString());
    return loaded ? loaded->graph : Graph{};
}

std::vector<GraphCost> costs(const Graph& g)
{
    std::vector<GraphCost> out;
    const auto model = makeCostModel("rlx");
    for (const DeviceProfile& p : rlxProfileSet("rlx-linux"))
        out.push_back(model->estimate(g, p, {{"batch", 2}}));
    return out;
}

std::size_t firstOf(const Graph& g, const std::string& label)
{
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].op.label() == label)
            return i;
    return g.nodes.size();
}

} // namespace

class TestGraphDiff : public QObject {
    Q_OBJECT
private slots:
    void identicalGraphsHaveNoChanges()
    {
        const Graph g = example();
        QVERIFY(!g.nodes.empty());
        const GraphDiff d = diffGraphs(g, g);
        QCOMPARE(d.matched.size(), g.nodes.size());
        QVERIFY(d.added.empty());
        QVERIFY(d.removed.empty());
        QCOMPARE(d.changedCount(), std::size_t(0));
        for (const NodePair& p : d.matched)
            QCOMPARE(p.a, p.b);
        const auto c = costs(g);
        for (const DeviceCostDiff& dd : costDiff(d, c, c)) {
            QCOMPARE(dd.totalA, dd.totalB);
            for (const NodeCostDelta& n : dd.nodes)
                QCOMPARE(n.delta(), 0.0);
        }
    }

    void unnamedNodesMatchByStructure()
    {
        const Graph g = example();
        const GraphDiff d = diffGraphs(g, g);
        std::size_t byStructure = 0;
        for (const NodePair& p : d.matched)
            byStructure += p.how == MatchKind::Structure;
        QVERIFY(byStructure > 0); // the example's compute nodes have no names
    }

    void editedCopy()
    {
        Graph a = example();
        const std::size_t add = firstOf(a, "Binary.Add");
        QVERIFY(add < a.nodes.size());
        a.nodes[add].name = "residual0";
        Graph b = a;
        Attrs mul = b.nodes[add].op.attrs;
        mul.set("op", std::string("Mul"));
        b.nodes[add].op = Op::make(OpKind::Binary, mul);
        Node relu;
        relu.id = b.nextId();
        Attrs act;
        act.set("op", std::string("Relu"));
        relu.op = Op::make(OpKind::Activation, act);
        relu.inputs = {b.outputs.front()};
        relu.shape = b.find(b.outputs.front())->shape;
        b.nodes.push_back(relu);
        b.outputs = {relu.id};

        const GraphDiff d = diffGraphs(a, b);
        QCOMPARE(d.added.size(), std::size_t(1));
        QCOMPARE(b.nodes[d.added.front()].id, relu.id);
        QVERIFY(d.removed.empty());
        QCOMPARE(d.changedCount(), std::size_t(1));
        for (const NodePair& p : d.matched)
            if (p.changed) {
                QCOMPARE(p.a, add);
                QVERIFY2(p.what.find("Binary.Mul") != std::string::npos, p.what.c_str());
            }
        // Reversed, the added node is a removed one.
        const GraphDiff back = diffGraphs(b, a);
        QCOMPARE(back.removed.size(), std::size_t(1));
        QVERIFY(back.added.empty());

        const auto ca = costs(a), cb = costs(b);
        const auto deltas = costDiff(d, ca, cb);
        QCOMPARE(deltas.size(), ca.size());
        for (std::size_t k = 0; k < deltas.size(); ++k) {
            QCOMPARE(deltas[k].totalA, ca[k].totalNs);
            QCOMPARE(deltas[k].totalB, cb[k].totalNs);
            const NodeCostDelta& last = deltas[k].nodes.back(); // added nodes come last
            QVERIFY(!last.a);
            QCOMPARE(last.costB, cb[k].nodes.back().totalNs);
        }
    }

    void fusedSetMatchesByIdDownstream()
    {
        const Graph a = example(); // tiny_transformer
        auto b = edit::fuseNodes(a, {19, 20, 21, 23}); // block 0's MLP: the fused node keeps the exit's id, 23
        QVERIFY(b);
        const GraphDiff d = diffGraphs(a, *b);
        // Only the folded members go; everything downstream of the fused node still pairs up.
        QCOMPARE(d.removed.size(), std::size_t(3));
        QVERIFY(d.added.empty());
        QCOMPARE(d.matched.size(), b->nodes.size());
        bool fusedChanged = false;
        for (const NodePair& p : d.matched)
            if (a.nodes[p.a].id == 23) {
                QCOMPARE(p.how, MatchKind::Id);
                QVERIFY2(p.what.find("op MatMul -> Fused") != std::string::npos, p.what.c_str());
                fusedChanged = p.changed;
            }
        QVERIFY(fusedChanged);
    }
};

QTEST_GUILESS_MAIN(TestGraphDiff)
#include "test_graph_diff.moc"
