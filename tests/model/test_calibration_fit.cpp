// SPDX-License-Identifier: MIT
// The correction fit: recovers known factors, honours the sample minimum and clamp, reports errors; fitting into a
// profile predicts without the profile's old corrections.
#include "analysis/calibration_fit.h"
#include "analysis/profile_fit.h"
#include "cpu_test_profile.h"

#include <QTest>

#include <cmath>
#include <utility>

using namespace costscope;
using costscope::test::cpuTestProfile;

namespace {
// Runs whose nodes are exactly `factor` × the prediction per class.
std::vector<FitRun> syntheticRuns(const std::map<std::string, double>& factors, int perClass)
{
    std::vector<FitRun> runs;
    for (int r = 0; r < 3; ++r) {
        FitRun run;
        run.predictedNs = 1000;
        run.measuredNs = 1000;
        for (const auto& [cls, f] : factors)
            for (int i = 0; i < perClass; ++i) {
                const double predicted = 100.0 * (i + 1) * (r + 1);
                run.nodes.push_back({cls, predicted, predicted * f});
                run.predictedNs += predicted;
                run.measuredNs += predicted * f;
            }
        runs.push_back(run);
    }
    return runs;
}

// A CPU profile without corrections for the profile fits.
// x [batch, 64] through a chain of `n` MatMuls with 64×64 weights.
std::shared_ptr<const Graph> matmulChain(int n)
{
    auto g = std::make_shared<Graph>();
    Shape x = Shape::of({0, 64});
    x.dims[0] = Dim::named("batch");
    Node in;
    in.id = 0;
    in.op = Op::make(OpKind::Input);
    in.shape = x;
    g->add(in);
    for (int i = 0; i < n; ++i) {
        Node w;
        w.id = 2 * i + 1;
        w.op = Op::make(OpKind::Param);
        w.shape = Shape::of({64, 64});
        g->add(w);
        Node mm;
        mm.id = 2 * i + 2;
        mm.op = Op::make(OpKind::MatMul);
        mm.inputs = {2 * i, 2 * i + 1};
        mm.shape = x;
        g->add(mm);
    }
    g->outputs = {2 * n};
    return g;
}
} // namespace

class TestCalibrationFit : public QObject {
    Q_OBJECT
private slots:
    void recoversKnownFactors()
    {
        const std::map<std::string, double> want = {{"matmul", 1.7}, {"elementwise", 0.4}, {"conv", 3.0}};
        FitOptions exact;
        exact.priorRuns = 0;
        const FitReport r = fitCorrections(syntheticRuns(want, 4), exact);
        QCOMPARE(r.corrections.size(), want.size());
        for (const auto& [cls, f] : want) {
            QVERIFY(std::abs(r.corrections.at(cls) - f) < 1e-12);
            QCOMPARE(r.samples.at(cls), 12);
        }
        QVERIFY(r.nodesBefore.mape > 30);
        QVERIFY(r.nodesAfter.mape < 1e-9);
        QCOMPARE(r.nodesAfter.within10, 1.0);
        QVERIFY(r.graphsAfter.mape < 1e-9);
        QVERIFY(r.graphsBefore.mape > r.graphsAfter.mape);
    }
    void geometricMeanOfNoisyRatios()
    {
        FitRun run;
        run.nodes = {{"pool", 100, 200}, {"pool", 100, 50}, {"pool", 100, 100}};
        const FitReport r = fitCorrections({run}, FitOptions{.priorRuns = 0});
        QVERIFY(std::abs(r.corrections.at("pool") - 1.0) < 1e-12); // exp(mean(log 2, log 0.5, 0))
    }
    void timeWeightedFitFollowsTheBigNodes()
    {
        FitRun run;
        run.nodes = {{"conv", 10, 10}, {"conv", 10, 10}, {"conv", 1000, 4000}};
        FitOptions o;
        o.weightByTime = true;
        o.priorRuns = 0;
        const double weighted = fitCorrections({run}, o).corrections.at("conv");
        const double plain = fitCorrections({run}, FitOptions{.priorRuns = 0}).corrections.at("conv");
        QVERIFY(std::abs(plain - std::cbrt(4.0)) < 1e-12);
        QVERIFY(std::abs(weighted - std::exp(4000 * std::log(4.0) / 4020)) < 1e-12);
        const auto exact = syntheticRuns({{"conv", 2.5}}, 3);
        QVERIFY(std::abs(fitCorrections(exact, o).corrections.at("conv") - 2.5) < 1e-12);
    }
    void everyRunWeighsTheSame()
    {
        // A run of 1 000 small conv nodes at 2× their prediction and one of 2 large ones at 0.5×: per node the
        // small ones would set the factor near 2; per run the two runs balance at 1.
        FitRun many, few;
        for (int i = 0; i < 1000; ++i)
            many.nodes.push_back({"conv", 10, 20});
        few.nodes = {{"conv", 1e6, 5e5}, {"conv", 2e6, 1e6}};
        QVERIFY(std::abs(fitCorrections({many, few}, FitOptions{.priorRuns = 0}).corrections.at("conv") - 1.0) < 1e-9);
        // The prior: one run at 2× moves a factor to 2^(1 / 3) with the default two-run prior, not to 2.
        const double shrunk = fitCorrections({many}).corrections.at("conv");
        QVERIFY(std::abs(shrunk - std::pow(2.0, 1.0 / 3.0)) < 1e-9);
        // Many runs agreeing pull nearly all the way.
        std::vector<FitRun> agreeing(20, many);
        QVERIFY(std::abs(fitCorrections(agreeing).corrections.at("conv") - std::pow(2.0, 20.0 / 22.0)) < 1e-9);
        QVERIFY(std::abs(fitCorrections({many}, FitOptions{.priorRuns = 0.5}).corrections.at("conv")
                         - std::pow(2.0, 1.0 / 1.5)) < 1e-9);
    }
    void minimumSamplesAndClamp()
    {
        FitRun run;
        run.nodes = {{"norm", 100, 150}, {"norm", 100, 150}, {"reduce", 1, 1000}, {"reduce", 1, 1000},
                     {"reduce", 1, 1000}, {"gather", 0, 10}, {"gather", 10, 0}, {"gather", 10, 20}};
        FitOptions o;
        o.minSamples = 3;
        o.maxFactor = 20;
        o.priorRuns = 0;
        const FitReport r = fitCorrections({run}, o);
        QVERIFY(!r.corrections.count("norm"));        // two samples only
        QCOMPARE(r.samples.at("norm"), 2);
        QCOMPARE(r.corrections.at("reduce"), 20.0);   // clamped from 1000
        QCOMPARE(r.samples.at("gather"), 1);          // zero times ignored
    }
    void profileFitReplacesOldCorrections()
    {
        DeviceProfile p = cpuTestProfile();
        DeviceProfile uncorrected = p;
        p.corrections = {{"matmul", 5.0}, {"conv", 2.0}};
        // Measured: exactly 3 × what the model predicts without corrections, at two batches.
        std::vector<MeasuredRun> runs;
        for (std::int64_t batch : {8, 64}) {
            MeasuredRun r{matmulChain(4), {{"batch", batch}}, {}, 0, {}};
            const GraphCost cost = makeCostModel("costscope")->estimate(*r.graph, uncorrected, r.bindings);
            for (const NodeCost& c : cost.nodes)
                if (r.graph->find(c.id)->op.kind == OpKind::MatMul)
                    r.nodes.emplace_back(c.id, 3.0 * c.totalNs);
            r.wholeNs = 3.0 * cost.totalNs;
            runs.push_back(std::move(r));
        }
        const ProfileFit fit = fitProfileCorrections(p, runs, FitOptions{.priorRuns = 0});
        QCOMPARE(fit.profile.name, p.name);
        QCOMPARE(fit.profile.sgemmGflops, p.sgemmGflops);
        QCOMPARE(fit.profile.corrections.size(), std::size_t(1)); // conv had no samples: its old factor is gone
        QVERIFY(std::abs(fit.profile.corrections.at("matmul") - 3.0) < 1e-9);
        QCOMPARE(fit.report.samples.at("matmul"), 8);
        QVERIFY(fit.report.nodesAfter.mape < 1e-6);
        QVERIFY(fit.report.nodesBefore.mape > 60);

        // The same runs made while the host ran everything at a third of its calibrated speed: priced at that speed,
        // the model has nothing left to correct.
        for (MeasuredRun& r : runs)
            r.host = {1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3};
        const ProfileFit slow = fitProfileCorrections(p, runs, FitOptions{.priorRuns = 0});
        QVERIFY(std::abs(slow.profile.corrections.at("matmul") - 1.0) < 1e-9);
        QVERIFY(slow.report.nodesBefore.mape < 1e-6);
    }
    // A GPU-like run: each node is timed with a fixed instrumentation cost (3 µs) that the plain whole-graph run does
    // not pay. The fit must take it off and find the nodes' real factor (2x), not 2x plus the overhead.
    void fitRemovesTheInstrumentationOverhead()
    {
        DeviceProfile p = cpuTestProfile();
        constexpr double overheadNs = 3000;
        std::vector<MeasuredRun> runs;
        for (std::int64_t batch : {8, 64}) {
            MeasuredRun r{matmulChain(6), {{"batch", batch}}, {}, 0, {}};
            const GraphCost cost = makeCostModel("costscope")->estimate(*r.graph, p, r.bindings);
            double trueSum = 0;
            for (const NodeCost& c : cost.nodes)
                if (r.graph->find(c.id)->op.kind == OpKind::MatMul) {
                    r.nodes.emplace_back(c.id, 2.0 * c.totalNs + overheadNs);
                    trueSum += 2.0 * c.totalNs;
                }
            r.wholeNs = trueSum;
            QVERIFY(std::abs(instrumentationOverheadNs(r.nodes, r.wholeNs) - overheadNs) < 1e-6);
            runs.push_back(std::move(r));
        }
        const ProfileFit fit = fitProfileCorrections(p, runs, FitOptions{.priorRuns = 0});
        QVERIFY2(std::abs(fit.profile.corrections.at("matmul") - 2.0) < 1e-6,
                 qPrintable(QString::number(fit.profile.corrections.at("matmul"))));
        QVERIFY(fit.report.nodesAfter.mape < 1e-4);
        // A node timed faster than the overhead keeps a tenth of its time; no overhead where nodes sum under the whole.
        QCOMPARE(withoutOverheadNs(1000, overheadNs), 100.0);
        QCOMPARE(instrumentationOverheadNs({{1, 10.0}, {2, 20.0}}, 100), 0.0);
    }

    // A plain run pays one launch and wait outside its kernels: fitGraphLaunchNs recovers it from runs of different
    // node counts, and the overhead per node then leaves it out (a small graph's nodes no longer absorb it).
    void launchTakenOutBeforeTheOverheadIsShared()
    {
        const double launch = 9000, perNode = 2500, kernel = 4000;
        std::vector<InstrumentedRunTotals> totals;
        for (const int nodes : {6, 12, 12, 20, 37, 104, 414}) {
            // the plain run: its kernels and the launch; the instrumented nodes: each kernel and the per-node overhead
            totals.push_back({nodes * (kernel + perNode), double(nodes), nodes * kernel + launch});
        }
        QVERIFY2(std::abs(fitGraphLaunchNs(totals) - launch) < 1e-6,
                 qPrintable(QString::number(fitGraphLaunchNs(totals))));
        std::vector<std::pair<NodeId, double>> six;
        for (NodeId id = 0; id < 6; ++id)
            six.push_back({id, kernel + perNode});
        QCOMPARE(instrumentationOverheadNs(six, 6 * kernel + launch, launch), perNode);
        QVERIFY(instrumentationOverheadNs(six, 6 * kernel + launch) < perNode); // without it: 1000 ns, not 2500
        QCOMPARE(nodeTimesWithoutOverhead(six, 6 * kernel + launch, launch).at(3), kernel);
        // Too few runs, or all of one size, fit nothing; the launch never takes more than half of the whole.
        QCOMPARE(fitGraphLaunchNs({totals.begin(), totals.begin() + 3}), 0.0);
        QCOMPARE(fitGraphLaunchNs(std::vector<InstrumentedRunTotals>(8, totals[1])), 0.0);
        QCOMPARE(instrumentationOverheadNs({{1, 100.0}, {2, 100.0}}, 100, 1e6), 75.0); // (200 - 100 / 2) / 2
    }

    // Vulkan on an H200 (issue 20): small graphs pay a 40 us submit and wait; millisecond graphs' plain runs came out
    // 1 % over their nodes, and one at half the clock. Least squares in ns made that a launch of 1.4 ms (324 us on the
    // real runs), and each node of a millisecond sampler graph then lost ~100 us: its small kernels kept a tenth of
    // their time. In relative error the launch is the small graphs' 40 us.
    void launchFitIgnoresMillisecondJitterAndOutliers()
    {
        const double launch = 40000, kernel = 5000;
        std::vector<InstrumentedRunTotals> totals;
        for (const int nodes : {6, 12, 12, 22, 37, 42})
            totals.push_back({nodes * kernel, double(nodes), nodes * kernel + launch});
        for (const auto& [nodes, ns] : {std::pair{2, 3e6}, {6, 8e6}, {12, 9e6}, {12, 33e6}})
            totals.push_back({ns, double(nodes), 1.01 * ns + launch});
        totals.push_back({10e6, 12, 20e6 + launch});
        const double fitted = fitGraphLaunchNs(totals);
        QVERIFY2(std::abs(fitted - launch) < 0.05 * launch, qPrintable(QString::number(fitted)));
        // A 6 us kernel among a 9 ms graph's 12 nodes keeps its time.
        std::vector<std::pair<NodeId, double>> nodes{{0, 6000.0}};
        for (NodeId id = 1; id < 12; ++id)
            nodes.push_back({id, (9e6 - 6000.0) / 11});
        QVERIFY(nodeTimesWithoutOverhead(nodes, 1.01 * 9e6 + launch, fitted).at(0) > 5000);
    }

    void errorStatsShares()
    {
        const ErrorStats e = errorStats({{105, 100}, {80, 100}, {200, 100}, {100, 100}});
        QCOMPARE(e.count, 4);
        QVERIFY(std::abs(e.mape - (5 + 20 + 100 + 0) / 4.0) < 1e-9);
        QCOMPARE(e.within10, 0.5);
        QCOMPARE(e.within25, 0.75);
    }
};

QTEST_GUILESS_MAIN(TestCalibrationFit)
#include "test_calibration_fit.moc"
