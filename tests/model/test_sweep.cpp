// SPDX-License-Identifier: MIT
#include "analysis/costscope_cost_model.h"
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"
#include "analysis/sweep.h"

#include <QtTest>

#include <cmath>

using namespace costscope;

Q_DECLARE_METATYPE(std::vector<std::int64_t>)

namespace {

Node node(NodeId id, Op op, std::vector<NodeId> inputs, Shape shape)
{
    Node n;
    n.id = id;
    n.op = std::move(op);
    n.inputs = std::move(inputs);
    n.shape = std::move(shape);
    return n;
}

Shape batchBy(std::int64_t cols)
{
    Shape s = Shape::of({0, cols});
    s.dims[0] = Dim::named("batch");
    return s;
}

// x [batch, 1024] · w [1024, 1024]: 2·1024² FLOPs per batch row.
Graph oneMatmul()
{
    Graph g;
    g.add(node(0, Op::make(OpKind::Input), {}, batchBy(1024)));
    g.add(node(1, Op::make(OpKind::Param), {}, Shape::of({1024, 1024})));
    g.add(node(2, Op::make(OpKind::MatMul), {0, 1}, batchBy(1024)));
    g.outputs = {2};
    return g;
}

// Compute-only profiles: memory so fast it never matters, no dispatch, unified (no readback).
DeviceProfile computeOnly(const char* name, Device d, double gflops, double roundtripNs)
{
    DeviceProfile p;
    p.name = name;
    p.device = d;
    p.sgemmGflops = gflops;
    p.memoryBw = 1e12;
    p.dispatchNs = 0;
    p.roundtripNs = roundtripNs;
    p.unifiedMemory = true;
    return p;
}

Graph chainGraph(int layers)
{
    Graph g;
    g.add(node(0, Op::make(OpKind::Input), {}, batchBy(256)));
    g.add(node(1, Op::make(OpKind::Param), {}, Shape::of({256, 256})));
    NodeId prev = 0;
    for (int i = 0; i < layers; ++i) {
        const NodeId mm = g.nextId();
        g.add(node(mm, Op::make(OpKind::MatMul), {prev, 1}, batchBy(256)));
        Attrs relu;
        relu.set("op", std::string("Relu"));
        g.add(node(mm + 1, Op::make(OpKind::Activation, relu), {mm}, batchBy(256)));
        g.add(node(mm + 2, Op::make(OpKind::LayerNorm), {mm + 1}, batchBy(256)));
        prev = mm + 2;
    }
    g.outputs = {prev};
    return g;
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    void parseValues_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<std::int64_t>>("expected");
        QTest::newRow("list") << "1,2,4" << std::vector<std::int64_t>{1, 2, 4};
        QTest::newRow("geometric") << "1:16:x2" << std::vector<std::int64_t>{1, 2, 4, 8, 16};
        QTest::newRow("geometric, end not hit") << "3:100:x4" << std::vector<std::int64_t>{3, 12, 48};
        QTest::newRow("arithmetic") << "1:64:+8" << std::vector<std::int64_t>{1, 9, 17, 25, 33, 41, 49, 57};
        QTest::newRow("single") << "7" << std::vector<std::int64_t>{7};
    }
    void parseValues()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<std::int64_t>, expected);
        auto v = parseSweepValues(text.toStdString());
        QVERIFY2(v.ok(), v.ok() ? "" : v.error().message.c_str());
        QCOMPARE(*v, expected);
        QCOMPARE(parseSweepValues("1:65536:x2")->size(), std::size_t(17));
    }

    void parseErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << "no values";
        QTest::newRow("word") << "1,two,3" << "'two' is not a non-negative integer";
        QTest::newRow("trailing comma") << "1,2," << "'' is not";
        QTest::newRow("negative") << "-1" << "not a non-negative integer";
        QTest::newRow("two parts") << "1:8" << "a range is START:END";
        QTest::newRow("bad step") << "1:8:*2" << "the step must be";
        QTest::newRow("factor 1") << "1:8:x1" << "the factor must be an integer >= 2";
        QTest::newRow("reversed") << "8:1:x2" << "0 <= START <= END";
        QTest::newRow("geometric from 0") << "0:8:x2" << "cannot start at 0";
        QTest::newRow("too many") << "1:100000:+1" << "more than 4096 values";
    }
    void parseErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        auto v = parseSweepValues(text.toStdString());
        QVERIFY(!v.ok());
        QVERIFY2(QString::fromStdString(v.error().message).contains(message), v.error().message.c_str());
    }

    void crossoverMatchesTheAnalyticPoint()
    {
        // Cpu: 100 GFLOP/s, no overhead. Cuda: 10 000 GFLOP/s after a 1 ms round trip.
        // tCpu = c·b/100, tCuda = 1e6 + c·b/10000 with c = 2·1024² → equal at b* = 1e6 / (c·(0.01 − 0.0001)).
        const double c = 2.0 * 1024 * 1024;
        const double bStar = 1e6 / (c * (0.01 - 0.0001)); // 48.17
        SweepRequest req;
        req.values = *parseSweepValues("1:1024:x2");
        req.profiles = {computeOnly("cpu", Device::Cpu, 100, 0), computeOnly("cuda", Device::Cuda, 10000, 1e6)};
        const SweepResult r = runSweep(oneMatmul(), CostscopeCostModel(), req);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.pick.front(), std::size_t(0));
        QCOMPARE(r.pick.back(), std::size_t(1));
        QCOMPARE(r.crossovers.size(), std::size_t(1));
        const Crossover& x = r.crossovers[0];
        QCOMPARE(x.from, std::size_t(0));
        QCOMPARE(x.to, std::size_t(1));
        QCOMPARE(x.firstValue, std::int64_t(64));
        QVERIFY2(std::abs(x.at - bStar) / bStar < 0.01, std::to_string(x.at).c_str());
        QCOMPARE(x.text, std::string("Cuda beats Cpu from batch 49 (first swept value: 64)"));
        QCOMPARE(r.totalNs[0][0], c / 100); // batch 1 on the Cpu profile
    }

    void cancellationStopsEarly()
    {
        std::atomic<bool> cancel{false};
        std::atomic<int> calls{0};
        SweepRequest req;
        req.values = *parseSweepValues("1:1000:+1");
        req.series.push_back({"gate", [&](const Bindings&) {
                                  ++calls;
                                  cancel = true;
                                  return 1.0;
                              }});
        const SweepResult r = runSweep(oneMatmul(), CostscopeCostModel(), req, &cancel);
        QVERIFY(r.cancelled);
        QVERIFY(calls < 1000);
        QVERIFY(r.pick.empty());

        std::atomic<bool> already{true};
        SweepRequest costs;
        costs.values = {1, 2};
        costs.profiles = {computeOnly("cpu", Device::Cpu, 100, 0)};
        QVERIFY(runSweep(oneMatmul(), CostscopeCostModel(), costs, &already).cancelled);
    }

    void resultsAreDeterministicAndMatchSingleEstimates()
    {
        const Graph g = chainGraph(200);
        SweepRequest req;
        req.values = *parseSweepValues("1:65536:x2");
        req.keepNodeCosts = true;
        for (int i = 0; i < 6; ++i) {
            DeviceProfile p = computeOnly("p", i == 0 ? Device::Cpu : Device::Cuda, 100.0 * (i + 1), 1000.0 * i);
            p.name = "p" + std::to_string(i);
            p.memoryBw = 10.0 * (6 - i);
            p.dispatchNs = 200.0 * i;
            req.profiles.push_back(p);
        }
        req.series.push_back({"batch", [](const Bindings& b) { return static_cast<double>(b.at("batch")); }});
        const CostscopeCostModel model;
        const SweepResult a = runSweep(g, model, req);
        const SweepResult b = runSweep(g, model, req);
        QCOMPARE(a.totalNs, b.totalNs);
        QCOMPARE(a.pick, b.pick);
        for (std::size_t v = 0; v < req.values.size(); ++v) {
            QCOMPARE(a.seriesValues[0][v], static_cast<double>(req.values[v]));
            for (std::size_t p = 0; p < req.profiles.size(); ++p) {
                const GraphCost single = model.estimate(g, req.profiles[p], {{"batch", req.values[v]}});
                QCOMPARE(a.totalNs[v][p], single.totalNs);
                QCOMPARE(a.costs[v][p].nodes.size(), g.nodes.size());
            }
        }
    }

    // The RLX model's sweep prices one work per value for every profile: the same numbers, node by node, as one
    // estimate per (value, profile), the discrete-GPU fallback (Metal) and skipped nodes included.
    void rlxSweepMatchesSingleEstimates()
    {
        const Graph g = chainGraph(50);
        const auto set = rlxProfileSet("rlx-linux");
        SweepRequest req;
        req.values = {1, 7, 64, 4096};
        req.keepNodeCosts = true;
        for (Device d : {Device::Cpu, Device::Cuda, Device::Gpu, Device::Metal})
            req.profiles.push_back(*findProfile(set, d));
        const RlxCostModel model;
        const SweepResult r = runSweep(g, model, req);
        for (std::size_t v = 0; v < req.values.size(); ++v)
            for (std::size_t p = 0; p < req.profiles.size(); ++p) {
                const GraphCost single = model.estimate(g, req.profiles[p], {{"batch", req.values[v]}});
                QCOMPARE(r.totalNs[v][p], single.totalNs);
                QCOMPARE(r.totalNs[v][p], rlxEstimate(g, req.profiles[p], {{"batch", req.values[v]}}));
                const GraphCost& swept = r.costs[v][p];
                QCOMPARE(swept.nodes.size(), single.nodes.size());
                for (std::size_t i = 0; i < single.nodes.size(); ++i) {
                    QCOMPARE(swept.nodes[i].totalNs, single.nodes[i].totalNs);
                    QCOMPARE(swept.nodes[i].bytes, single.nodes[i].bytes);
                    // node_cost alone, without the whole-graph shares, is the same arithmetic.
                    if (!req.profiles[p].rlxFallback) {
                        const NodeCost alone = model.nodeCost(g, g.nodes[i], req.profiles[p], {{"batch", req.values[v]}});
                        QCOMPARE(alone.computeNs, single.nodes[i].computeNs);
                        QCOMPARE(alone.flops, single.nodes[i].flops);
                    }
                }
            }
        QVERIFY(r.totalNs[0][3] > 0);
        // Unbound: the same nodes are skipped in the sweep as alone.
        SweepRequest unbound = req;
        unbound.symbol = "seq";
        unbound.values = {1};
        const SweepResult u = runSweep(g, model, unbound);
        QCOMPARE(u.skipped[0], model.estimate(g, req.profiles[0], {{"seq", 1}}).skipped);
        QVERIFY(!u.skipped[0].empty());
    }

    // The crossover of crossoverMatchesTheAnalyticPoint with Cuda Uncalibrated: RLX 0.2.16 keeps picking the Cpu, and
    // the crossover is still drawn, labelled, not picked; 0.2.14 picks it as before.
    void uncalibratedCrossoverIsDrawnNotPicked()
    {
        SweepRequest req;
        req.values = *parseSweepValues("1:1024:x2");
        DeviceProfile cuda = computeOnly("cuda", Device::Cuda, 10000, 1e6);
        cuda.calibration = Calibration::Uncalibrated;
        req.profiles = {computeOnly("cpu", Device::Cpu, 100, 0), cuda};
        const SweepResult r = runSweep(oneMatmul(), CostscopeCostModel(), req);
        QCOMPARE(r.ranked, (std::vector<bool>{true, false}));
        QCOMPARE(r.pick, std::vector<std::size_t>(r.values.size(), 0));
        QCOMPARE(r.crossovers.size(), std::size_t(1));
        const Crossover& x = r.crossovers[0];
        QVERIFY(!x.picked);
        QCOMPARE(x.from, std::size_t(0));
        QCOMPARE(x.to, std::size_t(1));
        QCOMPARE(x.firstValue, std::int64_t(64));
        QCOMPARE(x.text, std::string("Cuda beats Cpu from batch 49 (first swept value: 64; not picked: Cuda is "
                                     "Uncalibrated (RLX 0.2.16))"));

        req.rlxVersion = RlxVersion::V0_2_14;
        const SweepResult old = runSweep(oneMatmul(), CostscopeCostModel(), req);
        QCOMPARE(old.totalNs, r.totalNs); // costs do not depend on the rule
        QCOMPARE(old.pick.back(), std::size_t(1));
        QCOMPARE(old.crossovers.size(), std::size_t(1));
        QVERIFY(old.crossovers[0].picked);
        QCOMPARE(old.crossovers[0].text, std::string("Cuda beats Cpu from batch 49 (first swept value: 64)"));
        QCOMPARE(old.crossovers[0].at, x.at);

        // Every profile Uncalibrated: 0.2.16 falls back to the lowest of all, so the crossover is picked.
        req.rlxVersion = RlxVersion::V0_2_16;
        req.profiles[0].calibration = Calibration::Uncalibrated;
        const SweepResult all = runSweep(oneMatmul(), CostscopeCostModel(), req);
        QCOMPARE(all.pick, old.pick);
        QCOMPARE(all.crossovers.size(), std::size_t(1));
        QVERIFY(all.crossovers[0].picked);
    }

    // Three profiles: a measured Cuda takes over from the Cpu at large batch while a cheaper Uncalibrated Rocm would
    // have taken over earlier; the pick follows Cpu → Cuda, and Rocm's crossovers are drawn beside it.
    void pickedAndUnpickedCrossoversInValueOrder()
    {
        SweepRequest req;
        req.values = *parseSweepValues("1:1024:x2");
        DeviceProfile cuda = computeOnly("cuda", Device::Cuda, 10000, 4e6);
        cuda.calibration = Calibration::Measured;
        DeviceProfile rocm = computeOnly("rocm", Device::Rocm, 10000, 1e6);
        rocm.calibration = Calibration::Uncalibrated;
        req.profiles = {computeOnly("cpu", Device::Cpu, 100, 0), cuda, rocm};
        const SweepResult r = runSweep(oneMatmul(), CostscopeCostModel(), req);
        // tCuda = 4e6 + c·b/1e4 beats tCpu = c·b/100 from b = 4e6 / (c · 0.0099) = 192.6: first swept value 256.
        for (std::size_t v = 0; v < r.values.size(); ++v)
            QCOMPARE(r.pick[v], std::size_t(r.values[v] >= 256 ? 1 : 0));
        QCOMPARE(r.crossovers.size(), std::size_t(2));
        QVERIFY(!r.crossovers[0].picked); // Rocm beats Cpu from 49, not picked
        QCOMPARE(r.crossovers[0].to, std::size_t(2));
        QCOMPARE(r.crossovers[0].firstValue, std::int64_t(64));
        QVERIFY(r.crossovers[1].picked); // Cuda beats Cpu from 193
        QCOMPARE(r.crossovers[1].to, std::size_t(1));
        QCOMPARE(r.crossovers[1].firstValue, std::int64_t(256));
        QVERIFY2(QString::fromStdString(r.crossovers[1].text).startsWith("Cuda beats Cpu from batch 193"),
                 r.crossovers[1].text.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"
