// SPDX-License-Identifier: MIT
#include "ir/graph.h"
#include "ir/graph_summary.h"
#include "ir/validate.h"

#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace costscope;

namespace {
Node leaf(NodeId id, OpKind kind, const std::string& name, std::vector<std::int64_t> dims)
{
    Node n;
    n.id = id;
    Attrs a;
    a.set("name", name);
    n.op = Op::make(kind, a);
    n.shape = Shape::of(std::move(dims));
    return n;
}

Node unary(NodeId id, NodeId in, std::vector<std::int64_t> dims)
{
    Node n;
    n.id = id;
    Attrs a;
    a.set("op", std::string("Relu"));
    n.op = Op::make(OpKind::Activation, a);
    n.inputs = {in};
    n.shape = Shape::of(std::move(dims));
    return n;
}

Graph chain()
{
    Graph g;
    g.name = "chain";
    g.nodes = {leaf(0, OpKind::Input, "x", {2, 3}), unary(1, 0, {2, 3}), unary(2, 1, {2, 3})};
    g.outputs = {2};
    return g;
}

std::string firstError(const Graph& g)
{
    auto d = validateGraph(g);
    return d.empty() ? std::string() : d.front().format("g.json");
}
} // namespace

class TestIr : public QObject {
    Q_OBJECT
private slots:
    void dtypeSizes()
    {
        QCOMPARE(byteSize(DType::Bool), 1u);
        QCOMPARE(byteSize(DType::BF16), 2u);
        QCOMPARE(byteSize(DType::U32), 4u);
        QCOMPARE(byteSize(DType::C64), 8u);
        QCOMPARE(byteSize(DType::C128), 16u);
        for (DType t : kAllDTypes)
            QCOMPARE(parseDType(dtypeName(t)).value(), t);
        QVERIFY(!parseDType("F8").has_value());
    }
    void shapeCounts()
    {
        Shape s = Shape::of({2, 3, 4}, DType::F16);
        QCOMPARE(s.elements().value(), std::uint64_t(24));
        QCOMPARE(s.bytes().value(), std::uint64_t(48));
        Shape scalar = Shape::of({});
        QCOMPARE(scalar.elements().value(), std::uint64_t(1));
        Shape empty = Shape::of({0, 5});
        QCOMPARE(empty.bytes().value(), std::uint64_t(0));
        Shape sym;
        sym.dims = {Dim::named("batch"), Dim::fixed(8)};
        QVERIFY(!sym.elements().has_value());
        QCOMPARE(sym.elements({{"batch", 4}}).value(), std::uint64_t(32));
        QCOMPARE(sym.toString(), std::string("F32[batch,8]"));
    }
    void shapeOverflow()
    {
        Shape huge = Shape::of({std::int64_t(1) << 62, std::int64_t(1) << 62});
        QVERIFY(!huge.elements().has_value());
        QVERIFY(huge.overflows());
        Shape bytesOnly = Shape::of({std::int64_t(1) << 62}, DType::F32); // elements fit, bytes do not
        QVERIFY(bytesOnly.elements().has_value());
        QVERIFY(!bytesOnly.bytes().has_value());
        QVERIFY(bytesOnly.overflows());
        Shape sym;
        sym.dims = {Dim::named("batch"), Dim::fixed(std::int64_t(1) << 40)};
        QVERIFY(!sym.overflows());
        QVERIFY(sym.overflows({{"batch", std::int64_t(1) << 30}}));
    }
    void catalogueMatchesEnum()
    {
        const auto& cat = opCatalogue();
        for (std::size_t i = 0; i < cat.size(); ++i)
            QCOMPARE(static_cast<std::size_t>(cat[i].kind), i);
        QCOMPARE(cat.back().kind, OpKind::Unknown);
        QCOMPARE(opKindFromName("LayerNorm").value(), OpKind::LayerNorm);
        QVERIFY(!opKindFromName("Unknown").has_value());
        QVERIFY(opInfo(OpKind::WelchPeaks).hostSync);
        QVERIFY(opInfo(OpKind::Narrow).rlxMetadata);
        QVERIFY(!opInfo(OpKind::Slice).rlxMetadata);
    }
    void topologicalOrderFollowsInputs()
    {
        Graph g = chain();
        std::swap(g.nodes[0], g.nodes[2]); // stored out of order
        g.invalidate();
        auto order = g.topologicalOrder();
        QVERIFY(order.ok());
        std::vector<NodeId> ids;
        for (auto i : *order)
            ids.push_back(g.nodes[i].id);
        QCOMPARE(ids, (std::vector<NodeId>{0, 1, 2}));
    }
    void validationMessages()
    {
        QCOMPARE(firstError(chain()), std::string());

        Graph dangling = chain();
        dangling.nodes[2].inputs = {7};
        QCOMPARE(firstError(dangling), std::string("g.json: node 2: input 0 refers to node 7, which does not exist"));

        Graph dup = chain();
        dup.nodes[2].id = 1;
        dup.invalidate();
        QCOMPARE(firstError(dup), std::string("g.json: node 1: duplicate node id 1"));

        Graph cycle = chain();
        cycle.nodes[1].inputs = {2};
        QCOMPARE(firstError(cycle), std::string("g.json: node 1: is part of a cycle"));

        Graph self = chain();
        self.nodes[2].inputs = {2};
        QCOMPARE(firstError(self), std::string("g.json: node 2: is part of a cycle"));

        Graph arity = chain();
        arity.nodes[1].inputs = {0, 0};
        QCOMPARE(firstError(arity), std::string("g.json: node 1: Activation takes 1 input(s), has 2"));

        Graph badOut = chain();
        badOut.outputs = {9};
        QCOMPARE(firstError(badOut), std::string("g.json: output 9 does not exist"));

        Graph rank = chain();
        rank.nodes[0].shape = Shape::of({1, 1, 1, 1, 1, 1, 1, 1, 1});
        QCOMPARE(firstError(rank), std::string("g.json: node 0 (x): rank 9 is over the limit of 8"));

        Graph huge = chain();
        huge.nodes[0].shape = Shape::of({std::int64_t(1) << 62, 4});
        QCOMPARE(firstError(huge),
                 std::string("g.json: node 0 (x): shape F32[4611686018427387904,4] has more bytes than 64 bits can count"));
    }
    // Analysis workers share one const Graph; its lazily built index must stand concurrent first lookups (run under
    // the thread sanitizer in CI, where a race fails the test).
    void concurrentLookupsOnOneConstGraph()
    {
        Graph g;
        for (NodeId id = 0; id < 2000; ++id) {
            Node n;
            n.id = id * 3;
            g.add(n);
        }
        const Graph& shared = g;
        std::atomic<int> wrong{0};
        std::vector<std::thread> workers;
        for (int t = 0; t < 4; ++t)
            workers.emplace_back([&shared, &wrong, t] {
                for (NodeId id = t; id < 2000; id += 4)
                    if (shared.indexOf(id * 3) != std::size_t(id) || shared.indexOf(id * 3 + 1))
                        ++wrong;
            });
        for (auto& w : workers)
            w.join();
        QCOMPARE(wrong.load(), 0);
        const Graph copy = shared; // a copy starts without the index and builds its own
        QCOMPARE(copy.indexOf(2997), std::optional<std::size_t>(999));
    }

    void summaryCountsOps()
    {
        Graph g = chain();
        g.nodes.push_back(leaf(3, OpKind::Param, "w", {3, 3}));
        g.invalidate();
        GraphSummary s = summarize(g);
        QCOMPARE(s.nodeCount, std::size_t(4));
        QCOMPARE(s.opHistogram.at("Activation.Relu"), std::size_t(2));
        QCOMPARE(s.paramBytes, std::uint64_t(36));
        QCOMPARE(s.inputs.size(), std::size_t(1));
        QCOMPARE(s.inputs[0].name, std::string("x"));
        QCOMPARE(s.outputs[0].id, NodeId(2));
    }
};

QTEST_GUILESS_MAIN(TestIr)
#include "test_ir.moc"
