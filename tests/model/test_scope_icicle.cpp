// SPDX-License-Identifier: MIT
// The icicle of cost by scope: rows by scope level, bars as wide as their time, heaviest first, children inside
// their parent.
#include "edit/graph_builder.h"
#include "layout/scope_icicle.h"

#include <QtTest>

using namespace costscope;
using edit::GraphBuilder;

class TestScopeIcicle : public QObject {
    Q_OBJECT
private slots:
    void barsNestHeaviestFirst()
    {
        GraphBuilder b("net");
        const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({4, 8}));
        const NodeId a = b.sub(OpKind::Activation, "Relu", {x}, "block/attn");
        const NodeId m = b.sub(OpKind::Activation, "Gelu", {a}, "block/mlp");
        const NodeId m2 = b.sub(OpKind::Activation, "Tanh", {m}, "block/mlp");
        const NodeId out = b.sub(OpKind::Activation, "Sigmoid", {m2});
        const Graph g = b.finish({out});
        // ns per graph position: x 0, attn 10, mlp 20 + 30, top-level 5.
        const std::vector<double> ns = {0, 10, 20, 30, 5};
        const GroupTree tree = GroupTree::build(g);
        const auto cells = scopeIcicle(tree, g, ns);
        auto find = [&](const std::string& label) -> const IcicleCell* {
            for (const IcicleCell& c : cells)
                if (c.label == label)
                    return &c;
            return nullptr;
        };
        QCOMPARE(cells.front().row, 0);
        QCOMPARE(cells.front().ns, 65.0);
        QCOMPARE(cells.front().startNs, 0.0);
        const IcicleCell* block = find("block");
        const IcicleCell* mlp = find("mlp");
        const IcicleCell* attn = find("attn");
        QVERIFY(block && mlp && attn);
        QCOMPARE(block->row, 1);
        QCOMPARE(block->ns, 60.0);
        QCOMPARE(block->startNs, 0.0); // heavier than the top-level node (5 ns)
        QCOMPARE(mlp->row, 2);
        QCOMPARE(mlp->ns, 50.0);
        QCOMPARE(mlp->startNs, 0.0);
        QCOMPARE(attn->startNs, 50.0);
        QCOMPARE(attn->ns, 10.0);
        // The mlp's nodes under it, the Tanh (30 ns) first; the 0 ns input has no bar.
        int nodeBars = 0;
        for (const IcicleCell& c : cells) {
            if (c.group >= 0)
                continue;
            ++nodeBars;
            QVERIFY(c.ns > 0);
            if (c.node == 3) {
                QCOMPARE(c.row, 3);
                QCOMPARE(c.startNs, 0.0);
            }
            if (c.node == 2)
                QCOMPARE(c.startNs, 30.0);
            if (c.node == 4) {
                QCOMPARE(c.row, 1);
                QCOMPARE(c.startNs, 60.0);
            }
        }
        QCOMPARE(nodeBars, 4);
    }

    void noTimeNoBars()
    {
        GraphBuilder b("empty");
        const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({4}));
        const Graph g = b.finish({x});
        QVERIFY(scopeIcicle(GroupTree::build(g), g, {0.0}).empty());
    }
};

QTEST_APPLESS_MAIN(TestScopeIcicle)
#include "test_scope_icicle.moc"
