// SPDX-License-Identifier: MIT
// rebatch: Inputs get the new batch, shapes are re-inferred, batch-carrying Reshapes follow; bad graphs are named.
#include "formats/graph_file.h"
#include "ir/rebatch.h"
#include "test_paths.h"

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
Graph loadShared(const char* rel)
{
    auto loaded = loadGraphFile(sharedPath(rel).toStdString());
    if (!loaded)
        qFatal("cannot load %s", rel);
    return loaded->graph;
}

std::vector<std::int64_t> dimsOf(const Graph& g, NodeId id)
{
    std::vector<std::int64_t> d;
    for (const Dim& x : g.find(id)->shape.dims)
        d.push_back(x.value);
    return d;
}

using Dims = std::vector<std::int64_t>;
} // namespace

class TestRebatch : public QObject {
    Q_OBJECT
private slots:
    void mnistAtBatch8()
    {
        COSTSCOPE_REQUIRE_SHARED();
        const Graph g = loadShared("data/rlx/mnist.hir.json");
        auto r = rebatch(g, 8);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(dimsOf(*r, 0), (Dims{8, 1, 28, 28}));
        QCOMPARE(dimsOf(*r, 7), (Dims{8, 8, 28, 28}));  // Conv
        QCOMPARE(dimsOf(*r, 8), (Dims{1, 8, 1, 1}));    // bias Reshape: not the batch, untouched
        QCOMPARE(dimsOf(*r, 11), (Dims{8, 8, 14, 14})); // Pool
        QCOMPARE(dimsOf(*r, 16), (Dims{8, 16, 7, 7}));
        QCOMPARE(dimsOf(*r, 18), (Dims{8, 16}));        // Reshape [4,16] -> [8,16]
        QCOMPARE(r->find(18)->op.attrs.intsOr("new_shape", {}), (Dims{8, 16}));
        QCOMPARE(dimsOf(*r, 21), (Dims{8, 10}));
        QCOMPARE(dimsOf(*r, 5), (Dims{10, 16}));        // Params keep their shapes
    }
    void cnnAtBatch8()
    {
        COSTSCOPE_REQUIRE_SHARED();
        const Graph g = loadShared("data/rlx/cnn.hir.json");
        auto r = rebatch(g, 8);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(dimsOf(*r, 0), (Dims{8, 3, 16, 16}));
        QCOMPARE(dimsOf(*r, 19), (Dims{8, 8, 16, 16}));
        QCOMPARE(dimsOf(*r, 28), (Dims{1, 8, 1, 1}));
        QCOMPARE(dimsOf(*r, 33), (Dims{8, 8, 8, 8}));
        QCOMPARE(dimsOf(*r, 47), (Dims{8, 16, 8, 8}));
        QCOMPARE(dimsOf(*r, 49), (Dims{8, 16}));
        QCOMPARE(dimsOf(*r, 52), (Dims{8, 10}));
    }
    void sameBatchIsIdentity()
    {
        COSTSCOPE_REQUIRE_SHARED();
        const Graph g = loadShared("data/rlx/mnist.hir.json");
        auto r = rebatch(g, 4);
        QVERIFY(r);
        QVERIFY(*r == g);
    }
    void errorsNameTheProblem()
    {
        Graph g;
        Node in;
        in.id = 0;
        in.op = Op::make(OpKind::Input);
        in.shape = Shape{{Dim::named("batch"), Dim::fixed(3)}, DType::F32};
        g.add(in);
        auto r = rebatch(g, 8);
        QVERIFY(!r);
        QVERIFY(r.error().message.find("no static batch dim") != std::string::npos);
        QVERIFY(!rebatch(Graph{}, 8));
        COSTSCOPE_REQUIRE_SHARED();
        auto bad = rebatch(loadShared("data/rlx/mnist.hir.json"), 0);
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("positive") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRebatch)
#include "test_rebatch.moc"
