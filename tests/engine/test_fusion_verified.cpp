// SPDX-License-Identifier: MIT
// Fusion verified (engine/fusion_verified.h) and the fused kernels' prices (engine/fused_group_prices.h) on a graph
// whose kernels and times are scripted: a GEMM with its bias and Relu, and an element-wise pair after it, "run"
// unfused and fused with known node times, so that every number of the table is checked without a GPU. The CPU
// backend, which does not fuse, says so.
#include "analysis/fuse_what_if.h"
#include "analysis/rlx_profiles.h"
#include "backend.h"
#include "edit/fuse_nodes.h"
#include "fused_group_prices.h"
#include "fusion_verified.h"
#include "run_comparison.h"
#include "scripted_fusion_graph.h"

#include <QTest>

using namespace costscope;
using costscope::test::Scripted;
using costscope::test::scriptedGraph;

namespace {
DeviceProfile cudaProfile()
{
    return *findProfile(rlxProfileSet("rlx-linux"), Device::Cuda);
}

double gateScore(const Graph& g, const std::vector<NodeId>& members)
{
    auto w = fuseWhatIf(g, members);
    for (const FuseVerdict& v : w->verdicts)
        if (v.target == FusionTarget::Cuda)
            return v.scoreNs;
    return -1;
}

RunResult run(std::vector<NodeTiming> perNode, std::int64_t wholeNs)
{
    RunResult r;
    r.backend = "cuda";
    r.whole = TimingStats::of({wholeNs});
    r.perNode = std::move(perNode);
    return r;
}

std::int64_t sumNs(const std::vector<NodeTiming>& perNode)
{
    std::int64_t s = 0;
    for (const NodeTiming& t : perNode)
        s += t.ns;
    return s;
}
} // namespace

class TestFusionVerified : public QObject {
    Q_OBJECT
private slots:
    void fusedKernelsArePricedAsKernels();
    void groupsTheWhatIfRefusesKeepTheirSum();
    void fusingSavesTheKernelsPerKernelTerm();
    void tablePairsMeasuredAndPredictedGains();
    void overheadIsTakenOffBothRuns();
    void untimedMemberIsNotChecked();
    void cpuBackendSaysItDoesNotFuse();
    void runComparisonPricesFusedKernels();
};

void TestFusionVerified::fusedKernelsArePricedAsKernels()
{
    const Scripted s = scriptedGraph();
    const DeviceProfile p = cudaProfile();
    const GraphCost unfused = makeCostModel("costscope")->estimate(s.g, p);
    const FusedPricing prices = priceFusedGroups(s.g, {}, p, unfused, {{s.mm, s.add, s.relu}, {s.mul, s.out}});
    QCOMPARE(prices.groups.size(), std::size_t(2));
    // What the what-if prices: the graph with the group as one Fused node, which keeps the exit's id.
    NodeId fusedId = 0;
    auto fusedGraph = edit::fuseNodes(s.g, {s.mm, s.add, s.relu}, &fusedId);
    QVERIFY(fusedGraph);
    QCOMPARE(fusedId, s.relu);
    const GraphCost once = makeCostModel("costscope")->estimate(*fusedGraph, p);
    const double gemmPrice = once.nodes[*fusedGraph->indexOf(s.relu)].totalNs;
    const FusedGroupPrice& gemm = prices.groups[0];
    QVERIFY(gemm.problem.empty());
    QCOMPARE(gemm.exit, s.relu);
    QCOMPARE(gemm.fusedNs, gemmPrice);
    const double sum = unfused.nodes[*s.g.indexOf(s.mm)].totalNs + unfused.nodes[*s.g.indexOf(s.add)].totalNs
                       + unfused.nodes[*s.g.indexOf(s.relu)].totalNs;
    QCOMPARE(gemm.unfusedNs, sum);
    QVERIFY2(gemm.fusedNs < gemm.unfusedNs, "one kernel saves the bias and Relu passes over the output");
    // The whole graph: the unfused total with each group's members replaced by its kernel.
    double expected = unfused.totalNs;
    for (const FusedGroupPrice& g : prices.groups)
        expected += g.fusedNs - g.unfusedNs;
    QVERIFY(std::abs(prices.totalNs - expected) <= 1e-6 * expected);
    QVERIFY(prices.totalNs < unfused.totalNs);

    // The run's kernels as groups: a timing's fused nodes, then its own.
    const auto groups = fusedGroupsOf({{s.mm, "MatMul", 5, {}}, {s.relu, "gemm", 9, {s.mm, s.add}}});
    QCOMPARE(groups, (std::vector<std::vector<NodeId>>{{s.mm, s.add, s.relu}}));
}

// Under a graph composition (whole = scale x kernels + per-kernel x count + fixed), fusing three kernels into one
// saves two per-kernel terms besides the kernels' own times; the groups' gains add up to the whole graph's.
void TestFusionVerified::fusingSavesTheKernelsPerKernelTerm()
{
    const Scripted s = scriptedGraph();
    DeviceProfile plain = cudaProfile();
    DeviceProfile composed = plain;
    composed.graphComposition = {1.0, 3000.0, 0.0};
    const std::vector<std::vector<NodeId>> groups = {{s.mm, s.add, s.relu}};
    const FusedPricing without =
        priceFusedGroups(s.g, {}, plain, makeCostModel("costscope")->estimate(s.g, plain), groups);
    const GraphCost unfused = makeCostModel("costscope")->estimate(s.g, composed);
    const FusedPricing with = priceFusedGroups(s.g, {}, composed, unfused, groups);
    const double gainWithout = without.groups[0].unfusedNs - without.groups[0].fusedNs;
    const double gainWith = with.groups[0].unfusedNs - with.groups[0].fusedNs;
    QVERIFY2(std::abs(gainWith - gainWithout - 2 * 3000.0) <= 1e-6 * gainWith,
             qPrintable(QString("gain %1 under the composition, %2 without").arg(gainWith).arg(gainWithout)));
    QVERIFY(std::abs((unfused.totalNs - with.totalNs) - gainWith) <= 1e-6 * unfused.totalNs);
}

void TestFusionVerified::groupsTheWhatIfRefusesKeepTheirSum()
{
    const Scripted s = scriptedGraph();
    const DeviceProfile p = cudaProfile();
    const GraphCost unfused = makeCostModel("costscope")->estimate(s.g, p);
    // mm and out are not connected within the set: no one kernel can hold them.
    const FusedPricing prices = priceFusedGroups(s.g, {}, p, unfused, {{s.mm, s.out}});
    QVERIFY(!prices.groups[0].problem.empty());
    QCOMPARE(prices.groups[0].fusedNs, prices.groups[0].unfusedNs);
    QCOMPARE(prices.totalNs, unfused.totalNs);
}

void TestFusionVerified::tablePairsMeasuredAndPredictedGains()
{
    const Scripted s = scriptedGraph();
    const DeviceProfile p = cudaProfile();
    const GraphCost cost = makeCostModel("costscope")->estimate(s.g, p);
    const double gemmGate = gateScore(s.g, {s.mm, s.add, s.relu});
    const double pairGate = gateScore(s.g, {s.mul, s.out});
    QVERIFY(gemmGate > 0 && pairGate > 0);
    // The GEMM kernel saves 1.1x what the gate predicts (within 25 %), the pair 3x (outside).
    const std::int64_t gemmGain = std::llround(1.1 * gemmGate), pairGain = std::llround(3 * pairGate);
    std::vector<NodeTiming> unfused = {{s.mm, "MatMul", 400'000},
                                       {s.add, "Binary.Add", 60'000},
                                       {s.relu, "Activation.Relu", 50'000},
                                       {s.mul, "Binary.Mul", 40'000},
                                       {s.out, "Binary.Add", 45'000}};
    std::vector<NodeTiming> fused = {{s.relu, "gemm_bias_relu", 510'000 - gemmGain, {s.mm, s.add}},
                                     {s.out, "elementwise[Mul+Add]", 85'000 - pairGain, {s.mul}}};
    // Whole runs equal to the node sums: no instrumentation overhead.
    const FusionCompareRuns runs{run(unfused, sumNs(unfused)), run(fused, sumNs(fused))};
    const FusionVerification v = verifyFusion(s.g, {}, "cuda", runs, p, cost);

    QCOMPARE(v.target, std::string("Cuda"));
    QCOMPARE(v.profile, p.name);
    QCOMPARE(v.plannedGroups, std::size_t(2));
    QVERIFY(v.backendFused());
    QVERIFY(v.nothingToVerify().empty());
    QCOMPARE(v.unfusedOverheadNs, 0.0);
    QCOMPARE(v.kernels.size(), std::size_t(2));
    const FusedKernelCheck& gemm = v.kernels[0];
    QCOMPARE(gemm.kernel, std::string("gemm_bias_relu"));
    QCOMPARE(gemm.members, (std::vector<NodeId>{s.mm, s.add, s.relu}));
    QCOMPARE(gemm.unfusedNs, 510'000.0);
    QCOMPARE(gemm.fusedNs, double(510'000 - gemmGain));
    QCOMPARE(gemm.measuredGainNs, double(gemmGain));
    QCOMPARE(gemm.rlxGateGainNs, gemmGate);
    const FusedPricing prices = priceFusedGroups(s.g, {}, p, cost, {{s.mm, s.add, s.relu}, {s.mul, s.out}});
    QCOMPARE(gemm.costscopeUnfusedNs, prices.groups[0].unfusedNs);
    QCOMPARE(gemm.costscopeFusedNs, prices.groups[0].fusedNs);
    QCOMPARE(gemm.costscopeGainNs, prices.groups[0].unfusedNs - prices.groups[0].fusedNs);
    QVERIFY(gemm.checked());
    QVERIFY(gainWithinTolerance(gemm.rlxGateGainNs, gemm.measuredGainNs));
    const FusedKernelCheck& pair = v.kernels[1];
    QCOMPARE(pair.members, (std::vector<NodeId>{s.mul, s.out}));
    QCOMPARE(pair.measuredGainNs, double(pairGain));
    QVERIFY(!gainWithinTolerance(pair.rlxGateGainNs, pair.measuredGainNs));
    QCOMPARE(v.checkedKernels, std::size_t(2));
    QCOMPARE(v.rlxShareWithin, 0.5);
    const int costscopeWithin = int(gainWithinTolerance(gemm.costscopeGainNs, gemm.measuredGainNs))
                                + int(gainWithinTolerance(pair.costscopeGainNs, pair.measuredGainNs));
    QCOMPARE(v.costscopeShareWithin, costscopeWithin / 2.0);
    QCOMPARE(v.rlxGateGainNs, gemmGate + pairGate);

    QVERIFY(gainWithinTolerance(125, 100) && gainWithinTolerance(75, 100) && !gainWithinTolerance(126, 100));
    QVERIFY(gainWithinTolerance(-110, -100) && !gainWithinTolerance(10, -100));
}

void TestFusionVerified::overheadIsTakenOffBothRuns()
{
    const Scripted s = scriptedGraph();
    const DeviceProfile p = cudaProfile();
    const GraphCost cost = makeCostModel("costscope")->estimate(s.g, p);
    std::vector<NodeTiming> unfused = {{s.mm, "MatMul", 400'000},
                                       {s.add, "Binary.Add", 60'000},
                                       {s.relu, "Activation.Relu", 50'000},
                                       {s.mul, "Binary.Mul", 40'000},
                                       {s.out, "Binary.Add", 45'000}};
    std::vector<NodeTiming> fused = {{s.relu, "gemm_bias_relu", 420'000, {s.mm, s.add}},
                                     {s.out, "elementwise[Mul+Add]", 50'000, {s.mul}}};
    // Each timed node paid 2 µs that the plain runs did not (5 nodes unfused, 2 kernels fused).
    const FusionCompareRuns runs{run(unfused, sumNs(unfused) - 5 * 2000), run(fused, sumNs(fused) - 2 * 2000)};
    const FusionVerification v = verifyFusion(s.g, {}, "cuda", runs, p, cost);
    QCOMPARE(v.unfusedOverheadNs, 2000.0);
    QCOMPARE(v.fusedOverheadNs, 2000.0);
    QCOMPARE(v.kernels[0].unfusedNs, 510'000.0 - 3 * 2000);
    QCOMPARE(v.kernels[0].fusedNs, 418'000.0);
    QCOMPARE(v.kernels[0].measuredGainNs, 504'000.0 - 418'000.0);
    QCOMPARE(v.kernels[1].measuredGainNs, 81'000.0 - 48'000.0);
}

void TestFusionVerified::untimedMemberIsNotChecked()
{
    const Scripted s = scriptedGraph();
    const DeviceProfile p = cudaProfile();
    const GraphCost cost = makeCostModel("costscope")->estimate(s.g, p);
    std::vector<NodeTiming> unfused = {{s.mm, "MatMul", 400'000},
                                       {s.add, "Binary.Add", 60'000},
                                       {s.relu, "Activation.Relu", 50'000},
                                       {s.out, "Binary.Add", 45'000}};
    std::vector<NodeTiming> fused = {{s.relu, "gemm_bias_relu", 420'000, {s.mm, s.add}},
                                     {s.out, "elementwise[Mul+Add]", 50'000, {s.mul}}};
    const FusionCompareRuns runs{run(unfused, sumNs(unfused)), run(fused, sumNs(fused))};
    const FusionVerification v = verifyFusion(s.g, {}, "cuda", runs, p, cost);
    QVERIFY(v.kernels[0].checked());
    QVERIFY(!v.kernels[1].checked());
    QVERIFY(QString::fromStdString(v.kernels[1].problem).contains(QString::number(s.mul)));
    QCOMPARE(v.checkedKernels, std::size_t(1));
}

void TestFusionVerified::cpuBackendSaysItDoesNotFuse()
{
    const Scripted s = scriptedGraph();
    auto cpu = makeBackend("cpu");
    MeasureOptions options;
    options.warmupRuns = 1;
    options.timedRuns = 2;
    int lastDone = 0, lastTotal = 0;
    options.progress = [&](int done, int total) { lastDone = done, lastTotal = total; };
    auto runs = measureUnfusedAndFused(*cpu, s.g, {}, 0, {}, options);
    QVERIFY2(runs, runs ? "" : runs.error().message.c_str());
    QCOMPARE(lastDone, 4); // progress over both runs
    QCOMPARE(lastTotal, 4);
    QVERIFY(cpu->compileOptions().fusion); // restored
    QCOMPARE(runs->unfused.whole.runs, 2);
    QCOMPARE(runs->fused.whole.runs, 2);
    QCOMPARE(runs->unfused.perNode.size(), std::size_t(5));
    QCOMPARE(runs->fused.perNode.size(), std::size_t(5));
    const DeviceProfile p = cudaProfile();
    const FusionVerification v = verifyFusion(s.g, {}, "cpu", *runs, p, makeCostModel("costscope")->estimate(s.g, p));
    QVERIFY(!v.backendFused());
    QCOMPARE(v.target, std::string("Cpu"));
    QVERIFY(QString::fromStdString(v.nothingToVerify()).startsWith("not fused by this backend: cpu"));
}

void TestFusionVerified::runComparisonPricesFusedKernels()
{
    const Scripted s = scriptedGraph();
    RunResult r;
    r.whole = TimingStats::of({500'000});
    r.perNode = {{s.relu, "gemm_bias_relu", 420'000, {s.mm, s.add}}, {s.out, "elementwise[Mul+Add]", 30'000, {s.mul}}};
    auto predicted = predictRun(s.g, {}, "cuda", {});
    QVERIFY(predicted);
    DeviceInfo device;
    device.backend = "cuda";
    const auto graph = std::make_shared<const Graph>(s.g);
    const RunComparison run = compareRun(graph, {}, device, r, *predicted);
    QCOMPARE(run.nodes.size(), std::size_t(2));
    const FusedPricing prices = priceFusedGroups(s.g, {}, predicted->costscopeProfile, predicted->costscope,
                                                 {{s.mm, s.add, s.relu}, {s.mul, s.out}});
    // The Costscope model prices each kernel as the kernel; RLX parity as its members' sum.
    QCOMPARE(run.nodes[0].costscopeNs, prices.groups[0].fusedNs);
    QCOMPARE(run.nodes[1].costscopeNs, prices.groups[1].fusedNs);
    auto rlx = [&](NodeId id) { return predicted->rlx.nodes[*s.g.indexOf(id)].totalNs; };
    QCOMPARE(run.nodes[0].rlxNs, rlx(s.relu) + rlx(s.mm) + rlx(s.add));
    QCOMPARE(run.nodes[0].fused, (std::vector<NodeId>{s.mm, s.add}));
}

QTEST_GUILESS_MAIN(TestFusionVerified)
#include "test_fusion_verified.moc"
