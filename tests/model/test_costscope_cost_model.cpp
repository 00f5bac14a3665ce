// SPDX-License-Identifier: MIT
#include "analysis/costscope_cost_model.h"
#include "analysis/gemm_rate.h"
#include "analysis/host_speed.h"
#include "analysis/reuse_distance.h"

#include <QtTest>

#include <cmath>

using namespace costscope;

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

// x [rows, 64] · w [64, 64] → y, with `rows` a number or the symbol "batch".
Graph matmulGraph(std::optional<std::int64_t> rows = 64)
{
    Graph g;
    Shape x = Shape::of({rows.value_or(0), 64});
    if (!rows)
        x.dims[0] = Dim::named("batch");
    Shape y = x;
    Attrs in;
    in.set("name", std::string("x"));
    g.add(node(0, Op::make(OpKind::Input, in), {}, x));
    g.add(node(1, Op::make(OpKind::Param), {}, Shape::of({64, 64})));
    g.add(node(2, Op::make(OpKind::MatMul), {0, 1}, y));
    g.outputs = {2};
    return g;
}

DeviceProfile flatProfile()
{
    DeviceProfile p;
    p.name = "flat";
    p.device = Device::Cuda;
    p.sgemmGflops = 1000;
    p.memoryBw = 10;
    p.dispatchNs = 100;
    p.roundtripNs = 1000;
    p.unifiedMemory = true;
    return p;
}

} // namespace

class TestCostscopeCostModel : public QObject {
    Q_OBJECT

private slots:
    void reuseDistanceSeesWarmAndColdInputs()
    {
        // x (1 KiB) -> a -> [b reads y: 8 MiB of traffic] -> c reads a (cold: b's bytes since) -> d reads c (warm:
        // nothing since) -> e, a view of d -> f reads e (warm through the view). A weight w is read by f alone: the
        // rest of the pass ago.
        Graph g;
        Attrs relu;
        relu.set("op", std::string("Relu"));
        Attrs add;
        add.set("op", std::string("Add"));
        g.add(node(0, Op::make(OpKind::Input), {}, Shape::of({256})));
        g.add(node(1, Op::make(OpKind::Input), {}, Shape::of({1 << 20})));
        g.add(node(2, Op::make(OpKind::Activation, relu), {0}, Shape::of({256})));
        g.add(node(3, Op::make(OpKind::Activation, relu), {1}, Shape::of({1 << 20})));
        g.add(node(4, Op::make(OpKind::Activation, relu), {2}, Shape::of({256})));
        g.add(node(5, Op::make(OpKind::Activation, relu), {4}, Shape::of({256})));
        Attrs shape;
        shape.set("shape", std::vector<std::int64_t>{16, 16});
        g.add(node(6, Op::make(OpKind::Reshape, shape), {5}, Shape::of({16, 16})));
        g.add(node(7, Op::make(OpKind::Param), {}, Shape::of({16, 16})));
        g.add(node(8, Op::make(OpKind::Binary, add), {6, 7}, Shape::of({16, 16})));
        g.outputs = {3, 8};
        const GraphWork w = CostscopeCostModel().work(g, {});
        const std::vector<double> reuse = inputReuseBytes(g, w.nodes, {});
        QCOMPARE(reuse.size(), g.nodes.size());
        const double big = double(w.nodes[3].bytes);
        QVERIFY(big >= 8.0 * (1 << 20));
        QCOMPARE(reuse[4], big); // a, produced before b's 8 MiB
        QCOMPARE(reuse[5], 0.0); // c, produced by the kernel just before
        QCOMPARE(reuse[0], 0.0); // leaves and views launch nothing
        QCOMPARE(reuse[6], 0.0);
        double pass = 0;
        for (const OpWork& n : w.nodes)
            pass += n.free ? 0.0 : double(n.bytes);
        // f reads d through the view (warm, 0) and w (last read by f itself, the rest of a pass ago): 1 KiB each.
        QCOMPARE(reuse[8], (pass - double(w.nodes[8].bytes)) / 2);
        // a reads x, last read by a itself in the previous pass: everything else of that pass since.
        QCOMPARE(reuse[2], pass - double(w.nodes[2].bytes));
        // The cost model hands the same distances to the predictors.
        QCOMPARE(w.inputReuseBytes, reuse);
    }
    void rooflineTakesTheSlowerSide()
    {
        const Graph g = matmulGraph();
        CostscopeCostModel m;
        DeviceProfile p = flatProfile();
        // flops 2·64³ = 524288 → 524.288 ns at 1000 GFLOP/s; bytes 3·4096·4 = 49152 → 4915.2 ns at 10 GB/s.
        GraphCost memoryBound = m.estimate(g, p);
        QCOMPARE(memoryBound.nodes[2].computeNs, 524.288);
        QCOMPARE(memoryBound.nodes[2].memoryNs, 4915.2);
        QCOMPARE(memoryBound.nodes[2].totalNs, 5015.2);
        QCOMPARE(memoryBound.nodes[0].totalNs, 0.0); // leaves are free, no dispatch
        QCOMPARE(memoryBound.nodes[0].dispatchNs, 0.0);
        QCOMPARE(memoryBound.totalNs, 6015.2);
        QCOMPARE(memoryBound.model, std::string("costscope"));
        p.memoryBw = 1000;
        GraphCost computeBound = m.estimate(g, p);
        QCOMPARE(computeBound.nodes[2].totalNs, 624.288);
    }

    void tableInterpolatesInLogVolume()
    {
        DeviceProfile p = flatProfile();
        p.sgemmTable = {{256, 256, 256, 4000}, {64, 64, 64, 1000}}; // unsorted on purpose
        const GemmRate rate(p);
        QCOMPARE(rate.at(128, 128, 128), 2500.0); // halfway in log(m·k·n)
        QCOMPARE(rate.at(64, 128, 256), 2500.0);  // same volume, same rate
        QCOMPARE(rate.at(8, 8, 8), 1000.0);       // clamped below
        QCOMPARE(rate.at(1024, 1024, 1024), 4000.0);
        // A matrix-vector point of 64³'s volume prices matrix-vector shapes only: matrix shapes between 16³ and
        // 64³ interpolate towards 64³ whatever order the table lists them in.
        DeviceProfile skinny = flatProfile();
        skinny.sgemmTable = {{16, 16, 16, 100}, {1, 512, 512, 10}, {64, 64, 64, 1000}};
        const GemmRate withGemv(skinny);
        const double halfway = withGemv.at(8, 32, 128); // 32 768 = 16³·8, half-way in log volume
        QCOMPARE(halfway, 550.0);
        QCOMPARE(withGemv.at(1, 64, 512), 55.0); // matrix-vector: every point by volume, towards 1×512×512
        // Without a table: RLX's flat rate, and the small-shape rate under the threshold.
        DeviceProfile flat = flatProfile();
        flat.smallSgemmGflops = 50;
        flat.smallSgemmThreshold = 32768;
        QCOMPARE(GemmRate(flat).at(16, 16, 16), 50.0);
        QCOMPARE(GemmRate(flat).at(64, 64, 64), 1000.0);
        // The model uses it: 64³ at 1000 from the table point, compute-bound with fast memory.
        p.memoryBw = 1e6;
        const GraphCost c = CostscopeCostModel().estimate(matmulGraph(), p);
        QCOMPARE(c.nodes[2].computeNs, 524.288);
    }

    void convAddsTheIm2colColumns()
    {
        // x [1, 8, 16, 16] * w [16, 8, 3, 3], pad 1 -> [1, 16, 16, 16]: implicit GEMM m 256, k 72, n 16.
        Graph g;
        g.add(node(0, Op::make(OpKind::Input), {}, Shape::of({1, 8, 16, 16})));
        g.add(node(1, Op::make(OpKind::Param), {}, Shape::of({16, 8, 3, 3})));
        Attrs pad;
        pad.set("padding", std::vector<std::int64_t>{1, 1});
        g.add(node(2, Op::make(OpKind::Conv, pad), {0, 1}, Shape::of({1, 16, 16, 16})));
        g.outputs = {2};
        DeviceProfile p = flatProfile();
        p.memoryBw = 1e6;
        p.sgemmTable = {{64, 64, 64, 1000}};
        const double flops = 2.0 * 256 * 72 * 16;
        QCOMPARE(CostscopeCostModel().estimate(g, p).nodes[2].computeNs, flops / 1000);
        // The column matrix: 256 x 72 floats written at 10 bytes/ns.
        p.im2colBw = 10;
        QCOMPARE(CostscopeCostModel().estimate(g, p).nodes[2].computeNs, flops / 1000 + 256.0 * 72 * 4 / 10);
        // MatMul has no columns to write.
        QCOMPARE(CostscopeCostModel().estimate(matmulGraph(), p).nodes[2].computeNs, 524.288);
    }

    void tiledKernelsArePricedInWaves()
    {
        // Conv x [1, 8, 16, 16] * w [16, 8, 3, 3] groups 2: rows (output channels per group) 8, columns 256,
        // k 36 -> with 4x64 tiles and 8-deep steps: 2 x 4 tiles x 2 groups = 16 tiles, 3 waves of 6, 5 steps.
        Graph g;
        g.add(node(0, Op::make(OpKind::Input), {}, Shape::of({1, 8, 16, 16})));
        g.add(node(1, Op::make(OpKind::Param), {}, Shape::of({16, 4, 3, 3})));
        Attrs a;
        a.set("padding", std::vector<std::int64_t>{1, 1});
        a.set("groups", std::int64_t(2));
        g.add(node(2, Op::make(OpKind::Conv, a), {0, 1}, Shape::of({1, 16, 16, 16})));
        g.outputs = {2};
        DeviceProfile p = flatProfile();
        p.memoryBw = 1e6;
        p.im2colBw = 10; // the waves replace the GEMM rate and the columns alike
        p.convWaves = {4, 64, 8, 6, 100, 50};
        QCOMPARE(CostscopeCostModel().estimate(g, p).nodes[2].computeNs, 50 + 100.0 * 3 * 5);
        // MatMul x [64, 64] · w [64, 64] with 32x32 tiles, 4 at once, 16-deep steps: 4 tiles, 1 wave, 4 steps.
        p.matmulWaves = {32, 32, 16, 4, 10, 7};
        QCOMPARE(CostscopeCostModel().estimate(matmulGraph(), p).nodes[2].computeNs, 7 + 10.0 * 4);
        // Without waves, the table and the columns as before.
        p.convWaves = {};
        p.matmulWaves = {};
        QCOMPARE(CostscopeCostModel().estimate(matmulGraph(), p).nodes[2].computeNs, 524.288);
    }

    void wavesAreFittedFromTimings()
    {
        // Timings made by a known kernel (128x128 tiles, 8-deep steps, 132 at once, 900 ns a step, 20 us to start)
        // over square and skinny shapes: the fit finds it again.
        const TileWaves truth{128, 128, 8, 132, 900, 20000};
        std::vector<TiledTiming> timings;
        for (std::int64_t s : {128, 256, 512, 1024, 2048, 4096})
            for (std::int64_t k : {s, s / 4})
                timings.push_back({s, k, s, 1, truth.ns(s, k, s)});
        timings.push_back({49, 4608, 512, 1, truth.ns(49, 4608, 512)});
        const TileWaves fit = fitTileWaves(timings, 128, 128, 8);
        QVERIFY(fit.valid());
        for (const TiledTiming& t : timings) {
            const double relative = fit.ns(t.rows, t.k, t.cols) / t.ns - 1;
            QVERIFY(std::abs(relative) < 1e-6);
        }
        QCOMPARE(fit.stepNs, 900.0);
        QVERIFY(!fitTileWaves({timings[0], timings[1]}, 128, 128, 8).valid()); // too few timings
    }

    void cpuLoweringFollowsTheBackend()
    {
        // x [2, 8, 16, 16] * w [16, 8, 3, 3] with groups 2, pad 1: per sample and group a GEMM of m 8 (Cout/groups),
        // k 36 (Cin/groups x 9), n 256, and 36 x 256 column elements; four calls.
        Graph g;
        g.add(node(0, Op::make(OpKind::Input), {}, Shape::of({2, 8, 16, 16})));
        g.add(node(1, Op::make(OpKind::Param), {}, Shape::of({16, 4, 3, 3})));
        Attrs a;
        a.set("padding", std::vector<std::int64_t>{1, 1});
        a.set("groups", std::int64_t{2});
        g.add(node(2, Op::make(OpKind::Conv, a), {0, 1}, Shape::of({2, 16, 16, 16})));
        g.add(node(3, Op::make(OpKind::Reshape), {2}, Shape::of({2, 4096})));
        g.add(node(4, Op::make(OpKind::Pool), {2}, Shape::of({2, 16, 16, 16})));
        g.outputs = {3, 4};
        DeviceProfile p = flatProfile();
        p.memoryBw = 1e6;
        p.sgemmTable = {{64, 64, 64, 1000}};
        p.im2colBw = 10;
        const GraphCost before = CostscopeCostModel().estimate(g, p);
        QCOMPARE(before.nodes[3].totalNs, 0.0); // a view is free unless the profile says views copy
        p.convPerSample = true;
        p.viewCopyBw = 8;
        p.kernelGflops["Pool"] = 0.5;
        const GraphCost c = CostscopeCostModel().estimate(g, p);
        const double flops = 2.0 * 8 * 36 * 256;
        QCOMPARE(c.nodes[2].computeNs, 4 * flops / 1000 + 4.0 * 4 * 36 * 256 / 10);
        QCOMPARE(c.nodes[3].memoryNs, 2.0 * 2 * 4096 * 4 / 8);
        QCOMPARE(c.nodes[4].computeNs, before.nodes[4].flops / 0.5);
        // Bandwidth by bytes moved, clamped to the table's ends (the Pool moves 64 KiB).
        p.memoryBwTable = {{10, 100}, {1000, 10}};
        const double bytes = double(CostscopeCostModel().estimate(g, p).nodes[4].bytes);
        QCOMPARE(CostscopeCostModel().estimate(g, p).nodes[4].memoryNs, bytes / 10);
    }

    void kernelRatesByLabelBeforeKind()
    {
        // Two activations and a Pow over the same 4096 elements: each at its own measured rate when the profile
        // has one for its label, at the kind's rate otherwise.
        Graph g;
        g.add(node(0, Op::make(OpKind::Input), {}, Shape::of({4096})));
        Attrs tanh, relu, pow;
        tanh.set("op", std::string("Tanh"));
        relu.set("op", std::string("Relu"));
        pow.set("op", std::string("Pow"));
        g.add(node(1, Op::make(OpKind::Activation, tanh), {0}, Shape::of({4096})));
        g.add(node(2, Op::make(OpKind::Activation, relu), {0}, Shape::of({4096})));
        g.add(node(3, Op::make(OpKind::Binary, pow), {0, 0}, Shape::of({4096})));
        g.outputs = {1, 2, 3};
        DeviceProfile p = flatProfile();
        p.memoryBw = 1e6;
        p.kernelGflops["Activation"] = 2.0;
        p.kernelGflops["Activation.Tanh"] = 0.02;
        p.kernelGflops["Binary.Pow"] = 0.1;
        const GraphCost c = CostscopeCostModel().estimate(g, p);
        QCOMPARE(c.nodes[1].computeNs, c.nodes[1].flops / 0.02);
        QCOMPARE(c.nodes[2].computeNs, c.nodes[2].flops / 2.0); // no Relu rate: the kind's
        QCOMPARE(c.nodes[3].computeNs, c.nodes[3].flops / 0.1);
        QVERIFY(c.nodes[1].flops > 0 && c.nodes[3].flops > 0);
    }

    void kernelRatesFollowTheNodeSize()
    {
        // A Gelu measured at two sizes: smaller nodes at the small size's rate, larger at the large one's, log-linear
        // between; a label without points falls back to its single rate.
        Graph g;
        g.add(node(0, Op::make(OpKind::Input), {}, Shape::of({1 << 20})));
        Attrs gelu, tanh;
        gelu.set("op", std::string("Gelu"));
        tanh.set("op", std::string("Tanh"));
        g.add(node(1, Op::make(OpKind::Activation, gelu), {0}, Shape::of({1 << 10})));
        g.add(node(2, Op::make(OpKind::Activation, gelu), {0}, Shape::of({1 << 20})));
        g.add(node(3, Op::make(OpKind::Activation, gelu), {0}, Shape::of({1 << 15})));
        g.add(node(4, Op::make(OpKind::Activation, tanh), {0}, Shape::of({1 << 10})));
        g.outputs = {1, 2, 3, 4};
        DeviceProfile p = flatProfile();
        p.memoryBw = 1e6;
        p.kernelGflops["Activation.Gelu"] = 4.0;
        p.kernelGflops["Activation.Tanh"] = 0.5;
        const double perElement = CostscopeCostModel().estimate(g, p).nodes[1].flops / (1 << 10);
        p.kernelGflopsBySize["Activation.Gelu"] = {{perElement * (1 << 12), 1.0}, {perElement * (1 << 18), 4.0}};
        const GraphCost c = CostscopeCostModel().estimate(g, p);
        QCOMPARE(c.nodes[1].computeNs, c.nodes[1].flops / 1.0); // below the smallest point: its rate
        QCOMPARE(c.nodes[2].computeNs, c.nodes[2].flops / 4.0); // above the largest
        QVERIFY(std::abs(c.nodes[3].computeNs - c.nodes[3].flops / 2.5) < 1e-9 * c.nodes[3].computeNs); // halfway
        QCOMPARE(c.nodes[4].computeNs, c.nodes[4].flops / 0.5);
    }

    void hostAdjustedScalesEachKindOfWork()
    {
        // The host runs GEMMs at twice, libm kernels at half, memory at the same and dispatch at a quarter of the
        // speed of its calibration: each term of the prediction follows its own figure; corrections stay.
        const HostSpeed s = hostSpeed({100, 100, 100, 100}, {50, 200, 100, 400});
        QCOMPARE(s.gemm, 2.0);
        QCOMPARE(s.kernel, 0.5);
        QCOMPARE(s.memory, 1.0);
        QCOMPARE(s.dispatch, 0.25);
        QCOMPARE(hostSpeed({}, {50, 200, 100, 400}).gemm, 1.0); // no probe at calibration: unchanged
        Graph g = matmulGraph();
        Attrs tanh;
        tanh.set("op", std::string("Tanh"));
        g.add(node(3, Op::make(OpKind::Activation, tanh), {2}, Shape::of({64, 64})));
        g.outputs = {3};
        DeviceProfile p = flatProfile();
        p.sgemmTable = {{64, 64, 64, 100}};
        p.kernelGflops["Activation.Tanh"] = 0.5;
        p.kernelGflopsBySize["Activation.Tanh"] = {{10, 0.25}, {1e9, 0.5}};
        p.memoryBwTable = {{1000, 20}};
        p.corrections["matmul"] = 1.5;
        const DeviceProfile a = hostAdjusted(p, s);
        QCOMPARE(a.sgemmTable[0].gflops, 200.0);
        QCOMPARE(a.kernelGflops.at("Activation.Tanh"), 0.25);
        QCOMPARE(a.kernelGflopsBySize.at("Activation.Tanh")[1].gflops, 0.25);
        QCOMPARE(a.memoryBwTable[0].gbps, 20.0);
        QCOMPARE(a.dispatchNs, 4 * p.dispatchNs);
        QCOMPARE(a.corrections, p.corrections);
        QVERIFY(a.description.find("host-adjusted") != std::string::npos);
        const GraphCost before = CostscopeCostModel().estimate(g, p), after = CostscopeCostModel().estimate(g, a);
        QCOMPARE(after.nodes[2].computeNs, before.nodes[2].computeNs / 2);
        QCOMPARE(after.nodes[3].computeNs, before.nodes[3].computeNs * 2);
        QCOMPARE(after.nodes[3].dispatchNs, before.nodes[3].dispatchNs * 4);
    }

    void correctionsScaleTheirClass()
    {
        const Graph g = matmulGraph();
        DeviceProfile p = flatProfile();
        const double plain = CostscopeCostModel().estimate(g, p).nodes[2].totalNs;
        p.corrections["matmul"] = 2.0;
        p.corrections["norm"] = 5.0; // another class: no effect here
        QCOMPARE(CostscopeCostModel().estimate(g, p).nodes[2].totalNs, 2 * plain);
    }

    void readbackAndSyncPoints()
    {
        Graph g = matmulGraph();
        Attrs custom;
        custom.set("name", std::string("host_thing"));
        g.add(node(3, Op::make(OpKind::Custom, custom), {2}, Shape::of({64, 64})));
        g.outputs = {3};
        DeviceProfile p = flatProfile();
        p.unifiedMemory = false;
        p.hostReadbackBw = 16;
        const GraphCost c = CostscopeCostModel().estimate(g, p);
        QCOMPARE(c.nodes[3].syncNs, 1000.0);
        QCOMPARE(c.nodes[3].readbackNs, 1024.0); // 16384 bytes at 16 GB/s
        QCOMPARE(c.nodes[2].readbackNs, 0.0);    // not an output
        // Custom: 32768 bytes at 10 GB/s + dispatch, then sync and readback.
        QCOMPARE(c.nodes[3].totalNs, 3276.8 + 100 + 1000 + 1024);
        QCOMPARE(c.totalNs, 1000 + c.nodes[2].totalNs + c.nodes[3].totalNs);
        QVERIFY(QString::fromStdString(c.nodes[3].note).contains("memory-bound"));
    }

    void unboundSymbolsAreSkipped()
    {
        Graph g = matmulGraph(std::nullopt);
        g.add(node(3, Op::make(OpKind::Activation, {}), {1}, Shape::of({64, 64})));
        const GraphCost c = CostscopeCostModel().estimate(g, flatProfile());
        QCOMPARE(c.skipped, (std::vector<NodeId>{2})); // the input leaf costs nothing either way
        QVERIFY(c.nodes[2].skipped);
        QCOMPARE(c.nodes[2].totalNs, 0.0);
        QVERIFY(c.nodes[3].totalNs > 0); // still costed
        const GraphCost bound = CostscopeCostModel().estimate(g, flatProfile(), {{"batch", 64}});
        QVERIFY(bound.skipped.empty());
        QCOMPARE(bound.nodes[2].totalNs, 5015.2);
    }

    void freeLayoutOpsCostNothing()
    {
        Graph g = matmulGraph();
        Attrs shape;
        shape.set("new_shape", std::vector<std::int64_t>{4096});
        g.add(node(3, Op::make(OpKind::Reshape, shape), {2}, Shape::of({4096})));
        const GraphCost c = CostscopeCostModel().estimate(g, flatProfile());
        QCOMPARE(c.nodes[3].totalNs, 0.0);
        QCOMPARE(c.nodes[3].dispatchNs, 0.0);
    }

    void factoryMakesBothModels()
    {
        QCOMPARE(makeCostModel("costscope")->name(), std::string("costscope"));
        QCOMPARE(makeCostModel("rlx")->name(), std::string("rlx"));
        QVERIFY(makeCostModel("nonsense") == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestCostscopeCostModel)
#include "test_costscope_cost_model.moc"
