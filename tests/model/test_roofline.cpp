// SPDX-License-Identifier: MIT
// The roofline's data: each node's intensity and rates against the profile's roofs.
#include "analysis/roofline.h"

#include <QtTest>

using namespace costscope;

namespace {

Node node(NodeId id, OpKind kind, std::vector<NodeId> inputs, std::vector<std::int64_t> dims)
{
    Node n;
    n.id = id;
    n.op = Op::make(kind);
    n.inputs = std::move(inputs);
    n.shape = Shape::of(std::move(dims));
    return n;
}

DeviceProfile testProfile()
{
    DeviceProfile p;
    p.name = "test";
    p.peakGflops = 1000;
    p.sgemmGflops = 500;
    p.memoryBw = 100;
    return p;
}

NodeCost costed(NodeId id, double flops, std::uint64_t bytes, double ns)
{
    NodeCost c;
    c.id = id;
    c.flops = flops;
    c.bytes = bytes;
    c.totalNs = ns;
    return c;
}

} // namespace

class TestRoofline : public QObject {
    Q_OBJECT
private slots:
    void roofsComeFromTheProfile()
    {
        const Roofline r = rooflineOf(GraphCost{}, testProfile());
        QCOMPARE(r.peakGflops, 1000.0);
        QCOMPARE(r.bandwidthGBps, 100.0);
        QCOMPARE(r.ridgeIntensity(), 10.0);
        QCOMPARE(r.attainableGflops(1.0), 100.0);
        QCOMPARE(r.attainableGflops(100.0), 1000.0);
        DeviceProfile noPeak = testProfile();
        noPeak.peakGflops = 0;
        QCOMPARE(rooflineOf(GraphCost{}, noPeak).peakGflops, 500.0); // the sgemm rate stands in
    }

    void pointsAreIntensityAndRate()
    {
        GraphCost cost;
        cost.nodes = {costed(1, 2e6, 10000, 4000), costed(2, 0, 400, 50), costed(3, 1e3, 100, 0),
                      costed(4, 8e3, 1000, 100)};
        cost.nodes[3].skipped = true;
        const Roofline r = rooflineOf(cost, testProfile(), {std::nullopt, 70.0, std::nullopt});
        QCOMPARE(r.points.size(), std::size_t(1));
        QCOMPARE(r.leftOut, std::size_t(1)); // node 2 moves bytes but does no FLOPs; 3 takes no time; 4 is skipped
        const RooflinePoint& p = r.points[0];
        QCOMPARE(p.index, std::size_t(0));
        QCOMPARE(p.id, NodeId(1));
        QCOMPARE(p.intensity, 200.0);
        QCOMPARE(p.predictedGflops, 500.0); // 2e6 FLOP in 4 µs
        QVERIFY(!p.measuredGflops);
        const Roofline measured = rooflineOf(cost, testProfile(), {8000.0});
        QCOMPARE(*measured.points[0].measuredGflops, 250.0);
    }

    // The Costscope model prices a node no faster than its roofs allow: every predicted point is under them.
    void costscopePredictionsStayUnderTheRoofs()
    {
        Graph g;
        g.add(node(1, OpKind::Input, {}, {256, 256}));
        g.add(node(2, OpKind::Param, {}, {256, 256}));
        g.add(node(3, OpKind::MatMul, {1, 2}, {256, 256}));
        Node add = node(4, OpKind::Binary, {3, 1}, {256, 256});
        add.op.attrs.set("op", std::string("Add"));
        g.add(add);
        g.outputs = {4};
        const DeviceProfile p = testProfile();
        const Roofline r = rooflineOf(makeCostModel("costscope")->estimate(g, p), p);
        QCOMPARE(r.points.size(), std::size_t(2));
        for (const RooflinePoint& pt : r.points)
            QVERIFY2(pt.predictedGflops <= r.attainableGflops(pt.intensity) * (1 + 1e-9),
                     qPrintable(QStringLiteral("node %1: %2 GFLOP/s at %3 FLOP/B")
                                    .arg(pt.id)
                                    .arg(pt.predictedGflops)
                                    .arg(pt.intensity)));
        // The MatMul does 2·256³ FLOPs on three 256² fp32 tensors: far more intense than the Add.
        QVERIFY(r.points[0].intensity > 10 * r.points[1].intensity);
    }
};

QTEST_GUILESS_MAIN(TestRoofline)
#include "test_roofline.moc"
