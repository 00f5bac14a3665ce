// SPDX-License-Identifier: MIT
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"
#include "analysis/welch_peaks.h"
#include "rel_close.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace costscope;

namespace {
const std::vector<DeviceProfile>& rlxLinux()
{
    static const auto set = rlxProfileSet("rlx-linux");
    return set;
}
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

class TestWelchPeaks : public QObject {
    Q_OBJECT
private slots:
    void graphShapes();
    void hostProfileByHand();
    void gpuAdjustmentByHand();
    void hostEstimatesByHand();
    void fusedEstimateByHand();
    void gateMatrix_data();
    void gateMatrix();
    void gateValuesByHand();
    void strategyPicks_data();
    void strategyPicks();
    void strategyCostsByHand();
    void learnedStrategy();
    void learnedGatesText();
    void usefulBytesAndBandwidth();
};

void TestWelchPeaks::graphShapes()
{
    const WelchParams p = WelchParams::fast(256, 16);
    QCOMPARE(p.hop(), 128);
    QCOMPARE(WelchParams::ultraFast(256, 16).nSegments, 1);
    QCOMPARE(WelchParams::reference(256, 16).nSegments, 8);
    const Graph fused = welchFusedGraph(3, p);
    QCOMPARE(fused.nodes.size(), 5u);
    QCOMPARE(fused.outputs, std::vector<NodeId>{4});
    QCOMPARE(fused.nodes[0].shape, Shape::of({6, 256}));
    QCOMPARE(fused.nodes[1].op.subOp(), std::string("Sub"));
    QCOMPARE(fused.nodes[1].inputs, (std::vector<NodeId>{0, 0}));
    QCOMPARE(fused.nodes[2].op.kind, OpKind::Concat);
    QCOMPARE(fused.nodes[2].op.attrs.getInt("axis"), std::optional<std::int64_t>(1));
    QCOMPARE(fused.nodes[2].shape, Shape::of({6, 512}));
    QCOMPARE(fused.nodes[3].op.kind, OpKind::Fft);
    QCOMPARE(fused.nodes[3].shape, Shape::of({6, 512}));
    QCOMPARE(fused.nodes[4].op.kind, OpKind::WelchPeaks);
    QCOMPARE(fused.nodes[4].op.attrs.getInt("k"), std::optional<std::int64_t>(16));
    QCOMPARE(fused.nodes[4].shape, Shape::of({3, 32}));
    const Graph fft = welchFftOnlyGraph(3, p);
    QCOMPARE(fft.nodes.size(), 4u);
    QCOMPARE(fft.outputs, std::vector<NodeId>{3});
}

void TestWelchPeaks::hostProfileByHand()
{
    // b = 32, 2 segments: rows 64; launches 64 + 32; host 32·16·2·4; traffic 64·256·4 + 64·256·8 + 4096.
    const IoProfile io = welchHostProfile(32, WelchParams::fast(256, 16));
    QCOMPARE(io.kernelLaunches, 96u);
    QCOMPARE(io.syncPoints, 0u);
    QCOMPARE(io.hostOutputBytes, 4096u);
    QCOMPARE(io.deviceTrafficBytes, 65536u + 131072u + 4096u);
}

void TestWelchPeaks::gpuAdjustmentByHand()
{
    QCOMPARE(welchGpuAdjustment(Device::Cpu, 8192), 1.0);
    QCOMPARE(welchGpuAdjustment(Device::Gpu, 511), 1.0);
    COSTSCOPE_COMPARE_REL(welchGpuAdjustment(Device::Gpu, 1024), 1 + 0.69314718055994531 * 0.12); // ln 2
    COSTSCOPE_COMPARE_REL(welchGpuAdjustment(Device::Vulkan, 8192), 1 + 2.7725887222397811 * 0.12); // ln 16; large 0
    COSTSCOPE_COMPARE_REL(welchGpuAdjustment(Device::Metal, 2048), 1 + 1.3862943611198906 * 0.22); // ln 4, not > 2048
    COSTSCOPE_COMPARE_REL(welchGpuAdjustment(Device::Ane, 4096), (1 + 2.0794415416798357 * 0.22) * (1 + 1 * 1.15));
    COSTSCOPE_COMPARE_REL(welchGpuAdjustment(Device::Cuda, 8192), (1 + 2.7725887222397811 * 0.15) * (1 + 2 * 0.85));
    QCOMPARE(welchGpuAdjustment(Device::Tpu, 8192), 1.0); // RLX gives Tpu no coefficients
}

void TestWelchPeaks::hostEstimatesByHand()
{
    // io_cost under the generic CPU row (3000 roundtrip, 300 dispatch, 30 bytes/ns, not unified).
    // fast b=32: 3000 + 96·300 + 200704/30 + (4096 + 200704/4)/30.
    COSTSCOPE_COMPARE_REL(welchHostEstimate(rlxLinux(), Device::Cpu, 32, WelchParams::fast(256, 16)), 40299.2);
    // ultra b=32: rows 32, launches 64, traffic 32768 + 65536 + 4096: 3000 + 19200 + 102400/30 + 29696/30.
    COSTSCOPE_COMPARE_REL(welchHostEstimate(rlxLinux(), Device::Cpu, 32, WelchParams::ultraFast(256, 16)), 26603.2);
    // rlx-apple swaps in the Apple CPU row (5000 roundtrip, 500 dispatch, 50 bytes/ns):
    // fast b=32: 5000 + 96·500 + 200704/50 + 54272/50.
    COSTSCOPE_COMPARE_REL(welchHostEstimate(rlxProfileSet("rlx-apple"), Device::Cpu, 32, WelchParams::fast(256, 16)),
                          58099.52);
    // fast b=1024 on Gpu: rows 2048, launches 3072, host 131072, traffic 6422528:
    // (3000 + 921600 + 6422528/30 + (131072 + 1605632)/30) · (1 + ln 2 · 0.12).
    COSTSCOPE_COMPARE_REL(welchHostEstimate(rlxLinux(), Device::Gpu, 1024, WelchParams::fast(256, 16)),
                          1196574.4 * (1 + 0.69314718055994531 * 0.12));
}

void TestWelchPeaks::fusedEstimateByHand()
{
    // Metal is the discrete-GPU fallback under rlx-linux. fused(4096): launches 4, 1 sync, host 524288,
    // traffic 26752·4096 = 109576192: io_cost = 20000 + 8000 + 20000 + 109576192/800 + (524288 + 27394048)/50
    // = 743336.96, + 4 nodes (not Input/Param) × 2000 = 751336.96; × 7.5.
    const DeviceProfile& metal = *findProfile(rlxLinux(), Device::Metal);
    COSTSCOPE_COMPARE_REL(rlxEstimate(welchFusedGraph(4096, WelchParams::fast(256, 16)), metal), 751336.96);
    COSTSCOPE_COMPARE_REL(welchFusedEstimate(rlxLinux(), Device::Metal, 4096, 256, 16, 1), 5635027.2);
    // Cuda fused(4096): outputs Sub 2097152, Concat and Fft 4194304, peaks 131072 elements (× 4 / 900),
    // traffic 109576192 / 900, readback (524288 + 27394048) / 900, dispatch 4·3000, roundtrip and 1 sync 35000.
    const double cudaIo = 35000 + 12000 + 35000 + (8388608.0 + 2 * 16777216.0 + 524288 + 109576192 + 27918336) / 900;
    COSTSCOPE_COMPARE_REL(welchFusedEstimate(rlxLinux(), Device::Cuda, 4096, 256, 16, 1), cudaIo * 0.43);
    // Cuda fused(256): io 82000 + 11247616/900 ≈ 94497, × 0.43 is under the 400000 floor (b < 512).
    QCOMPARE(welchFusedEstimate(rlxLinux(), Device::Cuda, 256, 256, 16, 1), 400000.0);
    // Metal fused(256) with scale ≥ 1: max(io · 7.5, io + 400000), io = 48000 + 6848512/800 + 1744896/50 + 8000.
    const double metalIo = 48000 + 6848512.0 / 800 + 1744896.0 / 50 + 8000;
    COSTSCOPE_COMPARE_REL(welchFusedEstimate(rlxLinux(), Device::Metal, 256, 256, 16, 1), metalIo * 7.5);
    // Gpu fused(256): 80000 + 4·5000 + 80000 + (524288 + 2·1048576 + 32768 + 6848512 + 1744896)/120; scale 2.2 ≥ 1
    // and io · 2.2 = 602206.3 < io + 400000, so the floor term wins.
    COSTSCOPE_COMPARE_REL(welchFusedEstimate(rlxLinux(), Device::Gpu, 256, 256, 16, 1),
                          180000 + 11247616.0 / 120 + 400000);
    // Tpu: device factor 1.0, GPU-class floor: fallback io 48000 + 8560.64 + 34897.92 + 8000, + 400000.
    COSTSCOPE_COMPARE_REL(welchFusedEstimate(rlxLinux(), Device::Tpu, 256, 256, 16, 1), 99458.56 + 400000);
    // Cpu: factor 1.0 and no floor: the plain estimate.
    COSTSCOPE_COMPARE_REL(welchFusedEstimate(rlxLinux(), Device::Cpu, 256, 256, 16, 1),
                          rlxEstimate(welchFusedGraph(256, WelchParams::fast(256, 16)),
                                      *findProfile(rlxLinux(), Device::Cpu)));
    // compute_scale is clamped to 0.25: Metal 4096 at 0.1 → 7.5 · 0.25 = 1.875.
    COSTSCOPE_COMPARE_REL(welchFusedEstimate(rlxLinux(), Device::Metal, 4096, 256, 16, 0.1), 751336.96 * 1.875);
}

void TestWelchPeaks::gateMatrix_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("batch");
    QTest::addColumn<bool>("fuse");
    QTest::addColumn<int>("syncSaved");
    const std::tuple<const char*, int, bool, int> rows[] = {
        {"Metal", 256, false, -1}, {"Metal", 1024, true, -1}, {"Metal", 4096, true, -1}, {"Metal", 8192, true, -1},
        {"Gpu", 256, false, -1},   {"Gpu", 1024, false, -1},  {"Gpu", 4096, true, 0},    {"Gpu", 8192, true, 0},
        {"Vulkan", 256, false, -1}, {"Vulkan", 1024, false, -1}, {"Vulkan", 4096, true, 0}, {"Vulkan", 8192, true, 0},
        {"Cuda", 4096, true, 0},   {"Cuda", 8192, true, 0},
    };
    for (const auto& [d, b, fuse, sync] : rows)
        QTest::addRow("%s-%d", d, b) << QString(d) << b << fuse << sync;
}

void TestWelchPeaks::gateMatrix()
{
    QFETCH(QString, device);
    QFETCH(int, batch);
    QFETCH(bool, fuse);
    QFETCH(int, syncSaved);
    const WelchGate g = welchGate(rlxLinux(), *parseDevice(device.toStdString()), batch);
    QCOMPARE(g.shouldFuse, fuse);
    QCOMPARE(g.syncPointsSaved, syncSaved);
    QVERIFY(g.readbackSavedBytes > 0);
    QCOMPARE(g.nFft, 256);
    QCOMPARE(g.k, 16);
}

void TestWelchPeaks::gateValuesByHand()
{
    // Gpu 4096: launches −1, syncs 0 (one fewer at b ≥ 2048), traffic −4224·4096, host +3968·4096:
    // −3000 − 17301504/100 + 16252928/40.
    const WelchGate gpu = welchGate(rlxLinux(), Device::Gpu, 4096);
    COSTSCOPE_COMPARE_REL(gpu.scoreNs, 230308.16);
    QCOMPARE(gpu.minGainNs, 10000.0);
    QCOMPARE(gpu.readbackSavedBytes, 16252928);
    QVERIFY(gpu.shouldFuseIo && gpu.computeFloorOk);
    // Metal 1024: −500 − 5000 − 4325376/200 + 4063232 − 2000000 (unified: readback /1).
    const WelchGate metal = welchGate(rlxLinux(), Device::Metal, 1024);
    COSTSCOPE_COMPARE_REL(metal.scoreNs, 2036105.12);
    QCOMPARE(metal.minGainNs, 1000.0);
    // Metal 256: 1015808 − 2005500 − 1081344/200 < 1000.
    const WelchGate metal256 = welchGate(rlxLinux(), Device::Metal, 256);
    COSTSCOPE_COMPARE_REL(metal256.scoreNs, -995098.72);
    QVERIFY(!metal256.shouldFuseIo && metal256.computeFloorOk);
    // Compute floor of Metal 4096: fused 5635027.2 ≤ 1.10 · (0.72 · fft_only + 4096·16·80), where the fallback
    // fft_only(4096) = 20000 + 6000 + 92274688/800 + (16777216 + 23068672)/50 + 3·2000 = 944261.12.
    COSTSCOPE_COMPARE_REL(rlxEstimate(welchFftOnlyGraph(4096, WelchParams::fast(256, 16)),
                                      *findProfile(rlxLinux(), Device::Metal)),
                          944261.12);
    QVERIFY(5635027.2 <= 1.10 * (0.72 * 944261.12 + 4096 * 16 * 80));
    QVERIFY(welchGate(rlxLinux(), Device::Metal, 4096).computeFloorOk);
    // Tpu is GPU-class but not fused-viable, and keeps the sync point: its Wgpu-like gate refuses.
    QVERIFY(!welchGate(rlxLinux(), Device::Tpu, 8192).shouldFuse);
}

void TestWelchPeaks::strategyPicks_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("batch");
    QTest::addColumn<QString>("pick");
    for (int b : {32, 256, 512, 1024, 4096, 8192})
        QTest::addRow("Cpu-%d", b) << "Cpu" << b << "ultra";
    QTest::addRow("Gpu-256") << "Gpu" << 256 << "fast";
    QTest::addRow("Gpu-1024") << "Gpu" << 1024 << "fast";
    QTest::addRow("Gpu-8192") << "Gpu" << 8192 << "rlx";
    QTest::addRow("Cuda-8192") << "Cuda" << 8192 << "rlx";
}

void TestWelchPeaks::strategyPicks()
{
    QFETCH(QString, device);
    QFETCH(int, batch);
    QFETCH(QString, pick);
    const auto c = welchStrategyCosts(rlxLinux(), *parseDevice(device.toStdString()), batch);
    QCOMPARE(QString::fromUtf8(welchStrategyName(c.pick).data()), pick);
}

void TestWelchPeaks::strategyCostsByHand()
{
    const auto cpu = welchStrategyCosts(rlxLinux(), Device::Cpu, 32);
    COSTSCOPE_COMPARE_REL(cpu.ultraNs, 26603.2);
    COSTSCOPE_COMPARE_REL(cpu.fastNs, 40299.2);
    QCOMPARE(cpu.rlxNs, kInf);     // not GPU-class
    QCOMPARE(cpu.learnedNs, kInf); // learned not available
    const auto gpu = welchStrategyCosts(rlxLinux(), Device::Gpu, 256);
    QCOMPARE(gpu.ultraNs, kInf); // GPU-class and b > 128
    QCOMPARE(gpu.rlxNs, kInf);   // the gate says no
    COSTSCOPE_COMPARE_REL(welchStrategyCosts(rlxLinux(), Device::Gpu, 128).ultraNs,
                          welchHostEstimate(rlxLinux(), Device::Gpu, 128, WelchParams::ultraFast(256, 16)));
    const auto cuda = welchStrategyCosts(rlxLinux(), Device::Cuda, 4096);
    const double cudaIo = 82000 + (8388608.0 + 2 * 16777216.0 + 524288 + 109576192 + 27918336) / 900;
    COSTSCOPE_COMPARE_REL(cuda.rlxNs, cudaIo * 0.43);
}

void TestWelchPeaks::learnedStrategy()
{
    // active 1 of 8 (1·4 < 8): scale 2.2 · (0.30 + 0.70·1/8) = 0.8525 < 1 → io · 0.8525 on Gpu 8192.
    const auto open = welchStrategyCosts(rlxLinux(), Device::Gpu, 8192, 256, 16, {true, 1, 8});
    COSTSCOPE_COMPARE_REL(open.learnedNs, open.rlxNs / 2.2 * 0.8525);
    QCOMPARE(open.pick, WelchStrategy::Learned);
    QCOMPARE(welchStrategyCosts(rlxLinux(), Device::Gpu, 8192, 256, 16, {true, 2, 8}).learnedNs, kInf); // 8 < 8 fails
    QCOMPARE(welchStrategyCosts(rlxLinux(), Device::Gpu, 8192, 256, 16, {false, 1, 8}).learnedNs, kInf);
    QCOMPARE(welchStrategyCosts(rlxLinux(), Device::Gpu, 1024, 256, 16, {true, 1, 8}).learnedNs, kInf); // no fuse
}

void TestWelchPeaks::learnedGatesText()
{
    QCOMPARE(*parseLearnedGates("1/8"), (LearnedGates{true, 1, 8}));
    QCOMPARE(*parseLearnedGates("0/1"), (LearnedGates{true, 0, 1}));
    QCOMPARE(*parseLearnedGates("off"), LearnedGates{});
    QCOMPARE(*parseLearnedGates(""), LearnedGates{});
    for (const char* bad : {"9/2", "1/0", "-1/4", "1/", "/8", "1/8x", "18", "a/b"})
        QVERIFY2(!parseLearnedGates(bad), bad);
    QCOMPARE(costscope::learnedGatesText({true, 1, 8}), std::string("1/8"));
    QCOMPARE(costscope::learnedGatesText({}), std::string("off"));
}

void TestWelchPeaks::usefulBytesAndBandwidth()
{
    // 1024·2·256·4 + 1024·16·2·4.
    QCOMPARE(welchUsefulBytes(1024, WelchParams::fast(256, 16)), 2097152.0 + 131072.0);
    COSTSCOPE_COMPARE_REL(algorithmBandwidth(2228224.0, 1196574.4), 2228224.0 / 1196574.4);
    QCOMPARE(algorithmBandwidth(100, kInf), 0.0);
    QCOMPARE(algorithmBandwidth(100, 0), 0.0);
}

QTEST_GUILESS_MAIN(TestWelchPeaks)
#include "test_welch_peaks.moc"
