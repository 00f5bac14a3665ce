// SPDX-License-Identifier: MIT
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"
#include "formats/graph_file.h"
#include "rel_close.h"
#include "test_paths.h"

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
Graph loadShared(const char* rel)
{
    auto loaded = loadGraphFile(sharedPath(rel).toStdString());
    if (!loaded)
        qFatal("cannot load %s: %s", rel, loaded.error().format(rel).c_str());
    return loaded->graph;
}

DeviceProfile rlxLinux(Device d)
{
    static const auto set = rlxProfileSet("rlx-linux");
    return *findProfile(set, d);
}

Node makeNode(NodeId id, Op op, std::vector<NodeId> inputs, Shape shape)
{
    Node n;
    n.id = id;
    n.op = std::move(op);
    n.inputs = std::move(inputs);
    n.shape = std::move(shape);
    return n;
}

// q, k, v of shape [2, 4, 8, 16] → Attention{num_heads 4, head_dim 16}.
Graph attentionGraph()
{
    Graph g;
    for (NodeId i = 0; i < 3; ++i)
        g.add(makeNode(i, Op::make(OpKind::Input), {}, Shape::of({2, 4, 8, 16})));
    Attrs a;
    a.set("num_heads", std::int64_t{4});
    a.set("head_dim", std::int64_t{16});
    g.add(makeNode(3, Op::make(OpKind::Attention, a), {0, 1, 2}, Shape::of({2, 4, 8, 16})));
    g.outputs = {3};
    return g;
}
} // namespace

class TestRlxCostModel : public QObject {
    Q_OBJECT
private slots:
    void profileSetRows();
    void cpuWorkers();
    void mlxSmallSgemmRate();
    void nodeCostMatMulOnMnist();
    void nodeCostElementwiseOnMnist();
    void nodeCostAttention();
    void mnistWholeGraphOnCpu();
    void breakdownSumsToTotal();
    void mnistFallbackOnMetal();
    void ioCostByHand();
    void unboundSymbolsSkipNodes();
    void suppliedSyncsWithoutSyncNodesStayGraphLevel();
};

void TestRlxCostModel::profileSetRows()
{
    const auto set = rlxProfileSet("rlx-linux");
    QCOMPARE(set.size(), estimableDevices().size());
    const DeviceProfile cpu = rlxLinux(Device::Cpu);
    QCOMPARE(cpu.name, std::string("rlx-linux/cpu"));
    QCOMPARE(cpu.sgemmGflops, 200.0);
    QCOMPARE(cpu.dispatchNs, 300.0);
    QCOMPARE(cpu.roundtripNs, 3000.0);
    QCOMPARE(cpu.memoryBw, 30.0);
    const DeviceProfile cuda = rlxLinux(Device::Cuda);
    QCOMPARE(cuda.sgemmGflops, 12000.0);
    QCOMPARE(cuda.roundtripNs, 35000.0);
    QCOMPARE(cuda.readbackBw(), 900.0);
    QVERIFY(!cuda.unifiedMemory && !cuda.rlxFallback);
    QCOMPARE(rlxLinux(Device::Rocm).memoryBw, 800.0);
    for (Device d : {Device::Gpu, Device::Vulkan, Device::WebGpu, Device::DirectX, Device::OpenGl}) {
        QCOMPARE(rlxLinux(d).sgemmGflops, 2500.0);
        QCOMPARE(rlxLinux(d).roundtripNs, 80000.0);
        QCOMPARE(rlxLinux(d).memoryBw, 120.0);
        QVERIFY(!rlxLinux(d).rlxFallback);
    }
    for (Device d : {Device::Metal, Device::Mlx, Device::Ane, Device::Tpu}) {
        const DeviceProfile p = rlxLinux(d);
        QVERIFY(p.rlxFallback);
        QCOMPARE(p.device, d);
        QCOMPARE(p.sgemmGflops, 800.0);
        QCOMPARE(p.readbackBw(), 50.0);
        QCOMPARE(p.memoryBw, 800.0);
    }
    const auto apple = rlxProfileSet("rlx-apple");
    const DeviceProfile appleCpu = *findProfile(apple, Device::Cpu);
    QCOMPARE(appleCpu.name, std::string("rlx-apple/cpu"));
    QCOMPARE(appleCpu.sgemmGflops, 1000.0);
    QCOMPARE(appleCpu.dispatchNs, 500.0);
    QCOMPARE(appleCpu.roundtripNs, 5000.0);
    QCOMPARE(appleCpu.memoryBw, 50.0);
    QCOMPARE(findProfile(apple, Device::Cuda)->sgemmGflops, 12000.0);
    QVERIFY(rlxProfileSet("nope").empty());
}

void TestRlxCostModel::cpuWorkers()
{
    QCOMPARE(rlxCpuWorkers(8, std::nullopt), 4);
    QCOMPARE(rlxCpuWorkers(1, std::nullopt), 1);  // 1/2 = 0, clamped to 1
    QCOMPARE(rlxCpuWorkers(64, std::nullopt), 15); // clamped to 15
    QCOMPARE(rlxCpuWorkers(8, "6"), 6);
    QCOMPARE(rlxCpuWorkers(8, "0"), 4);   // 0 = auto
    QCOMPARE(rlxCpuWorkers(8, "six"), 4); // unparsable = auto
}

void TestRlxCostModel::mlxSmallSgemmRate()
{
    DeviceProfile p;
    p.sgemmGflops = 900;
    p.smallSgemmGflops = 100;
    p.smallSgemmThreshold = 32768;
    QCOMPARE(p.rlxSgemmGflops(8, 64, 63), 100.0); // 32256 < 32768
    QCOMPARE(p.rlxSgemmGflops(8, 64, 64), 900.0); // 32768 is not under the threshold
    QCOMPARE(rlxLinux(Device::Cpu).rlxSgemmGflops(1, 1, 1), 200.0);
}

void TestRlxCostModel::nodeCostMatMulOnMnist()
{
    COSTSCOPE_REQUIRE_SHARED();
    const Graph g = loadShared("data/rlx/mnist.hir.json");
    const Node& mm = *g.find(20); // [4,16] x [16,10] → [4,10]
    // n = 10, m = 40/10 = 4, k = 64/4 = 16, flops = 2·4·16·10 = 1280.
    const NodeCost cpu = RlxCostModel().nodeCost(g, mm, rlxLinux(Device::Cpu));
    QCOMPARE(cpu.flops, 1280.0);
    COSTSCOPE_COMPARE_REL(cpu.computeNs, 1280.0 / 201.0);
    COSTSCOPE_COMPARE_REL(cpu.totalNs, 1280.0 / 201.0 + 300.0);
    COSTSCOPE_COMPARE_REL(cpu.totalNs, 306.36815920398009);
    const NodeCost cuda = RlxCostModel().nodeCost(g, mm, rlxLinux(Device::Cuda));
    COSTSCOPE_COMPARE_REL(cuda.totalNs, 1280.0 / 12001.0 + 3000.0);
}

void TestRlxCostModel::nodeCostElementwiseOnMnist()
{
    COSTSCOPE_REQUIRE_SHARED();
    const Graph g = loadShared("data/rlx/mnist.hir.json");
    const RlxCostModel m;
    const DeviceProfile cpu = rlxLinux(Device::Cpu);
    // Conv is "everything else" in RLX: F32[4,8,28,28] = 25088 elements × 4 / 30 + 300.
    COSTSCOPE_COMPARE_REL(m.nodeCost(g, *g.find(7), cpu).totalNs, 25088.0 * 4 / 30 + 300);
    COSTSCOPE_COMPARE_REL(m.nodeCost(g, *g.find(7), cpu).memoryNs, 3345.0666666666666);
    // Reshape is not free in node_cost (only Input, Param, Constant are): 8 × 4 / 30 + 300.
    COSTSCOPE_COMPARE_REL(m.nodeCost(g, *g.find(8), cpu).totalNs, 301.06666666666666);
    // Binary Add F32[4,10] on the wgpu class: 40 × 4 / 120 + 5000.
    COSTSCOPE_COMPARE_REL(m.nodeCost(g, *g.find(21), rlxLinux(Device::Gpu)).totalNs, 160.0 / 120 + 5000);
    QCOMPARE(m.nodeCost(g, *g.find(0), cpu).totalNs, 0.0);
    QCOMPARE(m.nodeCost(g, *g.find(1), cpu).totalNs, 0.0);
}

void TestRlxCostModel::nodeCostAttention()
{
    const Graph g = attentionGraph();
    // seq = 8, batch = 1024 / (8·4·16) = 2, flops = 2·4·8²·16·2 = 16384; sgemm(8, 16, 8) = 200 on Cpu.
    const NodeCost c = RlxCostModel().nodeCost(g, *g.find(3), rlxLinux(Device::Cpu));
    QCOMPARE(c.flops, 16384.0);
    COSTSCOPE_COMPARE_REL(c.totalNs, 16384.0 / 201 + 300);
    COSTSCOPE_COMPARE_REL(RlxCostModel().nodeCost(g, *g.find(3), rlxLinux(Device::Cuda)).totalNs,
                          16384.0 / 12001 + 3000);
}

void TestRlxCostModel::mnistWholeGraphOnCpu()
{
    COSTSCOPE_REQUIRE_SHARED();
    const Graph g = loadShared("data/rlx/mnist.hir.json");
    // Σ node_cost: 15 non-leaf nodes × 300 dispatch + MatMul 1280/201 + element-wise outputs
    // (7: 25088, 8: 8, 9: 25088, 10: 25088, 11: 6272, 12: 12544, 13: 16, 14: 12544, 15: 12544, 16: 3136,
    //  17: 64, 18: 64, 19: 160, 21: 40 → 122656 elements) × 4 / 30.
    // IO: traffic 997640 / 30; readback 160 + 997640/4 = 249570, / 30; no syncs; roundtrip 3000.
    const double expected = 3000 + 15 * 300 + 1280.0 / 201 + 122656.0 * 4 / 30 + 997640.0 / 30 + 249570.0 / 30;
    COSTSCOPE_COMPARE_REL(expected, 65434.168159203980);
    COSTSCOPE_COMPARE_REL(rlxEstimate(g, rlxLinux(Device::Cpu)), expected);
    const RlxEstimate e = RlxCostModel().estimateWithIo(g, rlxLinux(Device::Cpu), ioProfile(g));
    COSTSCOPE_COMPARE_REL(e.terms.nodesNs, 15 * 300 + 1280.0 / 201 + 122656.0 * 4 / 30);
    COSTSCOPE_COMPARE_REL(e.terms.trafficNs, 997640.0 / 30);
    COSTSCOPE_COMPARE_REL(e.terms.readbackNs, 249570.0 / 30);
    QCOMPARE(e.terms.syncNs, 0.0);
    QCOMPARE(e.graphLevelNs, 3000.0); // only the roundtrip stays at graph level
    QCOMPARE(e.cost.model, std::string("rlx"));
    QCOMPARE(e.cost.nodes.size(), g.nodes.size());
}

void TestRlxCostModel::breakdownSumsToTotal()
{
    COSTSCOPE_REQUIRE_SHARED();
    const Graph g = loadShared("data/rlx/mnist.hir.json");
    for (Device d : {Device::Cpu, Device::Cuda, Device::Gpu, Device::Metal}) {
        const RlxEstimate e = RlxCostModel().estimateWithIo(g, rlxLinux(d), ioProfile(g));
        double sum = e.graphLevelNs;
        for (const NodeCost& c : e.cost.nodes)
            sum += c.totalNs;
        QCOMPARE(sum, e.cost.totalNs); // exactly, by construction
        COSTSCOPE_COMPARE_REL(e.cost.totalNs, rlxEstimate(g, rlxLinux(d)));
    }
    // Node 21 (the output, traffic 360 bytes) on Cpu: traffic share 997640/30 · 360/997640 = 12 → memoryNs
    // 40·4/30 + 12; readback: its 160 host bytes / 30 plus 249410/30 · 360/997640.
    const RlxEstimate e = RlxCostModel().estimateWithIo(g, rlxLinux(Device::Cpu), ioProfile(g));
    const NodeCost& out = e.cost.nodes[21];
    COSTSCOPE_COMPARE_REL(out.memoryNs, 160.0 / 30 + 12);
    COSTSCOPE_COMPARE_REL(out.readbackNs, 160.0 / 30 + 249410.0 / 30 * 360 / 997640);
    QCOMPARE(e.cost.nodes[19].memoryNs, 160.0 * 4 / 30); // a Transpose launches nothing: no traffic share
}

void TestRlxCostModel::mnistFallbackOnMetal()
{
    COSTSCOPE_REQUIRE_SHARED();
    const Graph g = loadShared("data/rlx/mnist.hir.json");
    // io_cost: 20000 + 11·2000 + 997640/800 + (160 + 249410)/50; plus 15 nodes that are not Input/Param × 2000.
    const double expected = 20000 + 11 * 2000 + 997640.0 / 800 + 249570.0 / 50 + 15 * 2000;
    COSTSCOPE_COMPARE_REL(expected, 78238.45);
    COSTSCOPE_COMPARE_REL(rlxEstimate(g, rlxLinux(Device::Metal)), expected);
    COSTSCOPE_COMPARE_REL(rlxIoCost(ioProfile(g), rlxDiscreteGpuFallback()) + 15 * 2000, expected);
}

void TestRlxCostModel::ioCostByHand()
{
    IoProfile io;
    io.kernelLaunches = 3;
    io.syncPoints = 1;
    io.hostOutputBytes = 100;
    io.deviceTrafficBytes = 1000;
    // Cuda: 35000 + 3·3000 + 1·35000 + 1000/900 + (100 + 250)/900.
    COSTSCOPE_COMPARE_REL(rlxIoCost(io, rlxLinux(Device::Cuda)), 35000 + 9000 + 35000 + 1000.0 / 900 + 350.0 / 900);
    DeviceProfile unified = rlxLinux(Device::Cuda);
    unified.unifiedMemory = true;
    unified.memoryBw = 0.5; // max(bw, 1) = 1
    COSTSCOPE_COMPARE_REL(rlxIoCost(io, unified), 35000 + 9000 + 35000 + 1000.0 + 100.0);
}

void TestRlxCostModel::unboundSymbolsSkipNodes()
{
    Graph g;
    Shape x;
    x.dims = {Dim::named("batch"), Dim::fixed(16)};
    Shape y;
    y.dims = {Dim::named("batch"), Dim::fixed(8)};
    g.add(makeNode(0, Op::make(OpKind::Input), {}, x));
    g.add(makeNode(1, Op::make(OpKind::Param), {}, Shape::of({16, 8})));
    g.add(makeNode(2, Op::make(OpKind::MatMul), {0, 1}, y));
    g.outputs = {2};
    const GraphCost unbound = RlxCostModel().estimate(g, rlxLinux(Device::Cpu));
    QVERIFY(unbound.nodes[2].skipped);
    QVERIFY(QString::fromStdString(unbound.nodes[2].note).contains("batch"));
    QCOMPARE(unbound.skipped, std::vector<NodeId>{2});
    // Traffic: only the Param's 512 bytes count (unbound tensors count 0): 3000 + 512/30 + 128/30.
    COSTSCOPE_COMPARE_REL(unbound.totalNs, 3000 + 512.0 / 30 + 128.0 / 30);
    // batch = 4: m = 4, n = 8, k = 64/4 = 16 → 1024 flops.
    const GraphCost bound = RlxCostModel().estimate(g, rlxLinux(Device::Cpu), {{"batch", 4}});
    QVERIFY(bound.skipped.empty());
    QCOMPARE(bound.nodes[2].flops, 1024.0);
}

void TestRlxCostModel::suppliedSyncsWithoutSyncNodesStayGraphLevel()
{
    const Graph g = attentionGraph();
    IoProfile io = ioProfile(g);
    io.syncPoints = 2;
    const RlxEstimate e = RlxCostModel().estimateWithIo(g, rlxLinux(Device::Cpu), io);
    QCOMPARE(e.graphLevelNs, 3000.0 + 2 * 3000.0);
    COSTSCOPE_COMPARE_REL(e.cost.totalNs, rlxEstimate(g, rlxLinux(Device::Cpu)) + 6000);
}

QTEST_GUILESS_MAIN(TestRlxCostModel)
#include "test_rlx_cost_model.moc"
