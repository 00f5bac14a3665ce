// SPDX-License-Identifier: MIT
#include "analysis/fuse_what_if.h"
#include "analysis/fusion_gate.h"
#include "analysis/welch_graphs.h"
#include "formats/graph_file.h"
#include "rel_close.h"
#include "test_paths.h"

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
// The spec's §5 check pair.
const IoProfile kDense{3, 0, 33'554'432, 184'549'376};
const IoProfile kFused{4, 1, 1'048'576, 219'152'384};

const FuseVerdict& verdict(const FuseWhatIf& w, FusionTarget t)
{
    for (const FuseVerdict& v : w.verdicts)
        if (v.target == t)
            return v;
    qFatal("no verdict");
}
} // namespace

class TestFusionGate : public QObject {
    Q_OBJECT
private slots:
    void benefitIsBeforeMinusAfter();
    void denseFusedPairMetalFusesWgpuDoesNot();
    void scoresOfEveryTargetByHand();
    void gateConstants();
    void deviceToTarget();
    void whatIfAddReluOnMnist();
    void whatIfRejectsDisconnectedSet();
    void whatIfRejectsNonConvexSet();
    void whatIfRejectsUnknownOrEmpty();
    void whatIfSyncOpsCollapseToOne();
};

void TestFusionGate::benefitIsBeforeMinusAfter()
{
    const FusionBenefit b = FusionBenefit::between(kDense, kFused);
    QCOMPARE(b.launchesSaved, -1);
    QCOMPARE(b.syncPointsSaved, -1);
    QCOMPARE(b.hostReadbackBytesSaved, 32'505'856);     // 33554432 − 1048576
    QCOMPARE(b.deviceTrafficBytesSaved, -34'603'008);   // 184549376 − 219152384
}

void TestFusionGate::denseFusedPairMetalFusesWgpuDoesNot()
{
    const FusionBenefit b = FusionBenefit::between(kDense, kFused);
    QVERIFY(ioFusionGate(FusionTarget::Metal).shouldFuse(b));
    QVERIFY(!ioFusionGate(FusionTarget::Wgpu).shouldFuse(b));
}

void TestFusionGate::scoresOfEveryTargetByHand()
{
    const FusionBenefit b = FusionBenefit::between(kDense, kFused);
    // Metal (unified: rb = 0 → /1): −500 − 5000 − 34603008/200 + 32505856/1 − 1·2000000.
    COSTSCOPE_COMPARE_REL(ioFusionGate(FusionTarget::Metal).score(b), 30327340.96);
    COSTSCOPE_COMPARE_REL(ioFusionGate(FusionTarget::Mlx).score(b), 30327340.96);
    // Cuda: −2000 − 20000 − 34603008/800 + 32505856/50 − 15000000.
    COSTSCOPE_COMPARE_REL(ioFusionGate(FusionTarget::Cuda).score(b), -14415136.64);
    // Wgpu: −3000 − 30000 − 34603008/100 + 32505856/40 − 25000000.
    COSTSCOPE_COMPARE_REL(ioFusionGate(FusionTarget::Wgpu).score(b), -24566383.68);
    // Cpu: −50 − 0 − 34603008/50 + 32505856/1 − 0.
    COSTSCOPE_COMPARE_REL(ioFusionGate(FusionTarget::Cpu).score(b), 31813745.84);
    // No penalty without lost sync points: 2·3000 + 1·30000 + 100/100 + 40/40.
    COSTSCOPE_COMPARE_REL(ioFusionGate(FusionTarget::Tpu).score({2, 1, 40, 100}), 36002.0);
    QVERIFY(ioFusionGate(FusionTarget::Tpu).shouldFuse({2, 1, 40, 100}));
    QVERIFY(!ioFusionGate(FusionTarget::Tpu).shouldFuse({1, 0, 0, 0})); // 3000 < 10000
}

void TestFusionGate::gateConstants()
{
    const IoFusionGate cuda = ioFusionGate(FusionTarget::Rocm);
    QCOMPARE(cuda.minGainNs, 5000.0);
    QCOMPARE(cuda.hostThunkPenaltyNs, 15e6);
    QVERIFY(!cuda.unifiedMemory);
    QCOMPARE(ioFusionGate(FusionTarget::Cpu).minGainNs, 0.0);
    QVERIFY(ioFusionGate(FusionTarget::Mlx).unifiedMemory);
    QCOMPARE(ioFusionGate(FusionTarget::Tpu).hostReadbackBw, 40.0);
}

void TestFusionGate::deviceToTarget()
{
    QCOMPARE(fusionTargetFor(Device::Metal), FusionTarget::Metal);
    QCOMPARE(fusionTargetFor(Device::Ane), FusionTarget::Mlx);
    QCOMPARE(fusionTargetFor(Device::Mlx), FusionTarget::Mlx);
    QCOMPARE(fusionTargetFor(Device::Rocm), FusionTarget::Rocm);
    for (Device d : {Device::Gpu, Device::Vulkan, Device::WebGpu, Device::DirectX, Device::OpenGl})
        QCOMPARE(fusionTargetFor(d), FusionTarget::Wgpu);
    QCOMPARE(fusionTargetFor(Device::Tpu), FusionTarget::Tpu);
    QCOMPARE(fusionTargetFor(Device::Cpu), FusionTarget::Cpu);
    QVERIFY(!fusionTargetFor(Device::OneApi));
}

void TestFusionGate::whatIfAddReluOnMnist()
{
    COSTSCOPE_REQUIRE_SHARED();
    auto loaded = loadGraphFile(sharedPath("data/rlx/mnist.hir.json").toStdString());
    QVERIFY(loaded.ok());
    auto w = fuseWhatIf(loaded->graph, {10, 9});
    QVERIFY(w.ok());
    QCOMPARE(w->nodes, (std::vector<NodeId>{9, 10}));
    // Unfused: Add 9 (200736 bytes) + Relu 10 (200704). Fused: reads node 7 (100352) and node 8 (32) once,
    // writes node 10 (100352, read by the Pool outside). 997640 − 401440 + 100384 + 100352 = 796936.
    QCOMPARE(w->after.kernelLaunches, 10u);
    QCOMPARE(w->after.deviceTrafficBytes, 796936u);
    QCOMPARE(w->benefit, (FusionBenefit{1, 0, 0, 200704}));
    // Metal: 500 + 200704/200 = 1503.52 ≥ 1000; Wgpu: 3000 + 200704/100 = 5007.04 < 10000;
    // Cuda: 2000 + 200704/800 = 2250.88 < 5000; Cpu: 50 + 200704/50 = 4064.08 ≥ 0.
    COSTSCOPE_COMPARE_REL(verdict(*w, FusionTarget::Metal).scoreNs, 1503.52);
    QVERIFY(verdict(*w, FusionTarget::Metal).shouldFuse);
    COSTSCOPE_COMPARE_REL(verdict(*w, FusionTarget::Wgpu).scoreNs, 5007.04);
    QVERIFY(!verdict(*w, FusionTarget::Wgpu).shouldFuse);
    COSTSCOPE_COMPARE_REL(verdict(*w, FusionTarget::Cuda).scoreNs, 2250.88);
    QVERIFY(!verdict(*w, FusionTarget::Cuda).shouldFuse);
    COSTSCOPE_COMPARE_REL(verdict(*w, FusionTarget::Cpu).scoreNs, 4064.08);
    QCOMPARE(w->verdicts.size(), fusionTargets().size());
}

void TestFusionGate::whatIfRejectsDisconnectedSet()
{
    COSTSCOPE_REQUIRE_SHARED();
    auto loaded = loadGraphFile(sharedPath("data/rlx/mnist.hir.json").toStdString());
    QVERIFY(loaded.ok());
    auto w = fuseWhatIf(loaded->graph, {9, 12});
    QVERIFY(!w.ok());
    QCOMPARE(w.error().node, std::optional<NodeId>(12));
    QVERIFY(QString::fromStdString(w.error().message).contains("not connected"));
}

void TestFusionGate::whatIfRejectsNonConvexSet()
{
    // segs (0) → Sub (1) → Concat (2), and segs → Concat directly: {0, 2} is connected, but 1 lies between.
    const Graph g = welchFusedGraph(2, WelchParams::fast(8, 2));
    auto w = fuseWhatIf(g, {0, 2});
    QVERIFY(!w.ok());
    QCOMPARE(w.error().node, std::optional<NodeId>(1));
    QVERIFY(fuseWhatIf(g, {0, 1, 2}).ok());
}

void TestFusionGate::whatIfRejectsUnknownOrEmpty()
{
    const Graph g = welchFusedGraph(2, WelchParams::fast(8, 2));
    QVERIFY(!fuseWhatIf(g, {}).ok());
    auto w = fuseWhatIf(g, {3, 99});
    QVERIFY(!w.ok());
    QVERIFY(QString::fromStdString(w.error().message).contains("99"));
}

void TestFusionGate::whatIfSyncOpsCollapseToOne()
{
    // fused(4), n_fft 8, k 2, 2 segments: rows 8. Fuse Concat, Fft, WelchPeaks (2, 3, 4).
    const Graph g = welchFusedGraph(4, WelchParams::fast(8, 2));
    auto w = fuseWhatIf(g, {2, 3, 4}, {});
    QVERIFY(w.ok());
    QCOMPARE(w->after.syncPoints, 1u);
    QCOMPARE(w->after.kernelLaunches, 2u); // Sub + the fused kernel
    // Before: Sub 3·256, Concat 2·256 + 512, Fft 2·512, WelchPeaks 512 + 64 (bytes, rows 8 × 8 × 4 = 256).
    // After: Sub 768 + fused (reads segs 256 and Sub 256 once, writes the 64-byte peaks) = 768 + 576.
    QCOMPARE(w->before.deviceTrafficBytes, 768u + 1024u + 1024u + 576u);
    QCOMPARE(w->after.deviceTrafficBytes, 768u + 576u);
    QCOMPARE(w->after.hostOutputBytes, w->before.hostOutputBytes);
}

QTEST_GUILESS_MAIN(TestFusionGate)
#include "test_fusion_gate.moc"
