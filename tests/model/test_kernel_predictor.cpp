// SPDX-License-Identifier: MIT
// The learned kernel predictors: XGBoost recovers a synthetic kernel's behaviour, the tree walk of the model library
// agrees with XGBoost's own predictions, predictors survive the profile JSON, bad predictor data falls back to the
// analytic terms with a warning, and the training samples lose the run's instrumentation overhead.
#include "analysis/costscope_cost_model.h"
#include "analysis/graph_composition.h"
#include "analysis/kernel_samples.h"
#include "analysis/profile_io.h"
#include "cpu_test_profile.h"
#include "holdout_test_run.h"
#include "train/family_holdout.h"
#include "train/kernel_predictor_train.h"
#include "zoo/model_zoo.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <random>
#include <set>

using namespace costscope;
using costscope::test::cpuTestProfile;

namespace {

// A synthetic "kernel": its time is the analytic time × a ratio that depends on the GEMM's m (a tile of 64 wastes
// what m leaves of it) and on the element count (small ones pay a launch).
double syntheticRatio(double m, double elements)
{
    const double tiles = std::ceil(m / 64.0);
    return (tiles * 64.0 / m) * (elements < 4096 ? 3.0 : 1.0);
}

std::vector<KernelSample> syntheticSamples(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> logm(0, 11), loge(6, 20), logt(3, 15);
    std::vector<KernelSample> out;
    for (int i = 0; i < n; ++i) {
        KernelSample s;
        s.kernelClass = "matmul";
        const double m = std::round(std::exp2(logm(rng))) + 1, elements = std::exp2(loge(rng));
        s.analyticNs = std::exp2(logt(rng));
        s.features.fill(NAN);
        s.features[size_t(KernelFeature::LogGemmM)] = float(std::log2(1 + m));
        s.features[size_t(KernelFeature::LogElements)] = float(std::log2(1 + elements));
        s.features[size_t(KernelFeature::LogAnalyticNs)] = float(std::log2(1 + s.analyticNs));
        s.measuredNs = s.analyticNs * syntheticRatio(m, elements);
        out.push_back(s);
    }
    return out;
}

KernelPredictors trainedMatmul()
{
    PredictorTrainOptions o;
    o.threads = 1;
    auto t = trainKernelPredictors(syntheticSamples(600, 1), o);
    if (!t)
        qFatal("%s", t.error().message.c_str());
    return t->predictors;
}

} // namespace

class TestKernelPredictor : public QObject {
    Q_OBJECT
private slots:
    void recoversASyntheticKernel()
    {
        const KernelPredictors p = trainedMatmul();
        QCOMPARE(p.size(), std::size_t(1));
        const KernelPredictor& k = p.at("matmul");
        QCOMPARE(k.samples, 600);
        int within10 = 0;
        const auto held = syntheticSamples(200, 2); // drawn apart from the training set
        for (const KernelSample& s : held)
            within10 += std::fabs(k.predictNs(s.features, s.analyticNs, 0) / s.measuredNs - 1) <= 0.10;
        QVERIFY2(within10 >= 180, qPrintable(QString::number(within10) + " of 200 within 10 %"));
    }

    void treeWalkAgreesWithXgboost()
    {
        const KernelPredictor k = trainedMatmul().at("matmul");
        std::vector<KernelFeatures> rows;
        for (const KernelSample& s : syntheticSamples(100, 3))
            rows.push_back(s.features);
        KernelFeatures missing;
        missing.fill(NAN); // every feature missing: the default directions
        rows.push_back(missing);
        auto reference = xgboostMargins(k, rows);
        QVERIFY2(reference.ok(), reference.ok() ? "" : reference.error().message.c_str());
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(std::fabs(k.margin(rows[i]) - (*reference)[i]) < 1e-4,
                     qPrintable(QString("row %1: %2 vs %3").arg(i).arg(k.margin(rows[i])).arg((*reference)[i])));
    }

    void predictionIsClampedAndBoundedByTheRoofline()
    {
        const KernelPredictor k = trainedMatmul().at("matmul");
        const KernelFeatures f = syntheticSamples(1, 4).front().features;
        QVERIFY(k.predictNs(f, 1000, 5e6) == 5e6); // never under the roofline's floor
        const double r = k.predictNs(f, 1000, 0) / 1000;
        QVERIFY(r >= KernelPredictor::kMinRatio && r <= KernelPredictor::kMaxRatio);
    }

    void roundTripsThroughTheProfileJson()
    {
        DeviceProfile p = cpuTestProfile();
        p.kernelPredictors = std::make_shared<const KernelPredictors>(trainedMatmul());
        auto back = profileFromJsonText(profileToJsonText(p), "round-trip");
        QVERIFY(back.ok());
        QVERIFY(back->loadWarnings.empty());
        QVERIFY(back->kernelPredictors && back->kernelPredictors->count("matmul"));
        const KernelPredictor& a = p.kernelPredictors->at("matmul");
        const KernelPredictor& b = back->kernelPredictors->at("matmul");
        QCOMPARE(b.samples, a.samples);
        for (const KernelSample& s : syntheticSamples(50, 5))
            QCOMPARE(b.margin(s.features), a.margin(s.features));
        // The cost model prices matmul nodes with it, and nothing else.
        const Graph g = modelZoo().front().build(1);
        const GraphCost learned = CostscopeCostModel().estimate(g, *back);
        const GraphCost plain = CostscopeCostModel().estimate(g, cpuTestProfile());
        int learnedNodes = 0;
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            const bool matmul = g.nodes[i].op.kind == OpKind::MatMul;
            QCOMPARE(learned.nodes[i].learned, matmul);
            if (!matmul)
                QCOMPARE(learned.nodes[i].totalNs, plain.nodes[i].totalNs);
            learnedNodes += learned.nodes[i].learned;
        }
        QVERIFY(learnedNodes > 0);
    }

    void badPredictorDataFallsBackWithAWarning()
    {
        DeviceProfile p = cpuTestProfile();
        p.kernelPredictors = std::make_shared<const KernelPredictors>(trainedMatmul());
        auto j = nlohmann::json::parse(profileToJsonText(p));
        j["kernel_predictors"]["conv"] = {{"samples", 3}}; // no model
        j["kernel_predictors"]["norm"] = {{"xgboost", {{"learner", {{"objective", {{"name", "binary:logistic"}}}}}}}};
        auto& tree = j["kernel_predictors"]["matmul"]["xgboost"]["learner"]["gradient_booster"]["model"]["trees"][0];
        tree["left_children"][0] = 0; // a loop
        auto back = profileFromJsonText(j.dump(), "bad.json");
        QVERIFY(back.ok()); // the rest of the profile stays usable
        QCOMPARE(back->loadWarnings.size(), std::size_t(3));
        for (const std::string& w : back->loadWarnings) {
            QVERIFY2(w.find("bad.json: key 'kernel_predictors.") == 0, w.c_str());
            QVERIFY2(w.find("analytic") != std::string::npos, w.c_str());
        }
        QVERIFY(!back->kernelPredictors || back->kernelPredictors->empty());
        const Graph g = modelZoo().front().build(1);
        const GraphCost cost = CostscopeCostModel().estimate(g, *back);
        const GraphCost plain = CostscopeCostModel().estimate(g, cpuTestProfile());
        QCOMPARE(cost.totalNs, plain.totalNs);
        QVERIFY(!KernelPredictor::fromXgboostJson("{", "x").ok());
        QVERIFY(!KernelPredictor::fromXgboostJson("{\"learner\": {}}", "x").ok());
    }

    void samplesLoseTheInstrumentationOverhead()
    {
        // A scripted plan: every node measured at 4x its analytic time plus 2 us of per-node timing overhead, and
        // a whole-graph median without that overhead.
        const Graph g = modelZoo().front().build(1);
        const DeviceProfile p = cpuTestProfile();
        const GraphCost cost = CostscopeCostModel().estimate(g, p);
        std::vector<std::pair<NodeId, double>> measured;
        double whole = p.roundtripNs;
        for (const NodeCost& n : cost.nodes)
            if (n.totalNs > 0) {
                measured.emplace_back(n.id, 4 * n.totalNs + 2000);
                whole += 4 * n.totalNs;
            }
        const auto samples = kernelSamplesFrom(g, p, measured, whole, "gpt");
        QVERIFY(!samples.empty());
        double weights = 0;
        for (const KernelSample& s : samples) {
            QVERIFY2(std::fabs(s.measuredNs / s.analyticNs - 4) < 0.05,
                     qPrintable(QString::number(s.measuredNs / s.analyticNs)));
            QCOMPARE(s.family, std::string("gpt"));
            weights += s.weight;
        }
        QVERIFY(std::fabs(weights - 1) < 1e-9); // each run weighs one
    }

    void anAnomalouslySlowNodeDoesNotWeighItselfUp()
    {
        // A scripted plan whose nodes run at their analytic time, but for one measured 50x slower (a sampled
        // 8x512x128 GEMM took 53 us on an H200, eight times its neighbours): its weight is its analytic share of the
        // run, not the half of the run its measured time would claim.
        const Graph g = modelZoo().front().build(1);
        const DeviceProfile p = cpuTestProfile();
        const GraphCost cost = CostscopeCostModel().estimate(g, p);
        std::vector<std::pair<NodeId, double>> measured;
        double whole = 0;
        for (const NodeCost& n : cost.nodes)
            if (n.totalNs > 0) {
                const double ns = (measured.empty() ? 50 : 1) * n.totalNs;
                measured.emplace_back(n.id, ns);
                whole += ns;
            }
        const auto samples = kernelSamplesFrom(g, p, measured, whole, "gpt");
        QVERIFY(samples.size() > 2);
        double analytic = 0, weights = 0;
        for (const KernelSample& s : samples)
            analytic += s.analyticNs;
        for (const KernelSample& s : samples) {
            const double expected = 0.5 / double(samples.size()) + 0.5 * s.analyticNs / analytic;
            QVERIFY2(std::fabs(s.weight - expected) < 1e-12, qPrintable(QString::number(s.weight)));
            weights += s.weight;
        }
        QVERIFY(std::fabs(weights - 1) < 1e-9);
        QVERIFY(samples.front().measuredNs > 40 * samples.front().analyticNs); // the slow one is still its own label
    }

    void reuseDistanceIsNoWarmerThanTheSamplersWarmGraphs()
    {
        // Inputs touched 28 KB, 1 MB or 24 MiB ago are all in the cache as the kernel sampler's warm kernels are:
        // one value of the feature, so that the distance cannot tell the trees which graph a kernel came from.
        // Farther than that, the distance still grows with the bytes; unknown stays missing.
        const Graph g = modelZoo().front().build(1);
        const GraphWork w = CostscopeCostModel().work(g, {});
        std::size_t i = 0;
        while (i < g.nodes.size() && kernelClassOf(g.nodes[i], w.nodes[i]).empty())
            ++i;
        QVERIFY(i < g.nodes.size());
        const auto reuse = [&](double bytes) {
            return kernelFeatures(g.nodes[i], w.nodes[i], 1000, w.outputElements[i],
                                  bytes)[size_t(KernelFeature::LogReuseBytes)];
        };
        const float warm = reuse(kWarmReuseBytes);
        QCOMPARE(warm, float(std::log2(1 + kWarmReuseBytes)));
        for (double bytes : {0.0, 28e3, 1e6, 0.5 * kWarmReuseBytes})
            QCOMPARE(reuse(bytes), warm);
        QVERIFY(reuse(4 * kWarmReuseBytes) > warm + 1.9);
        QVERIFY(std::isnan(reuse(-1)));
    }

    void leaveOneFamilyOutNeverTrainsOnTheHeldOutFamily()
    {
        // Two families whose kernels run at different ratios of the analytic time: the held-out family is
        // predicted with the other's ratio, so the learned model must miss it by that difference.
        const DeviceProfile p = cpuTestProfile();
        std::vector<EvalRun> runs;
        for (const auto& [family, ratio] : {std::pair{"mlp", 2.0}, std::pair{"gpt", 5.0}})
            for (const ZooGraph& z : modelZoo())
                if (z.family == family)
                    for (std::int64_t b : {1, 2}) {
                        auto g = std::make_shared<const Graph>(z.build(b));
                        const GraphCost c = CostscopeCostModel().estimate(*g, p);
                        EvalRun r{family, z.name, b, {}};
                        r.run.graph = g;
                        r.run.wholeNs = p.roundtripNs;
                        for (const NodeCost& n : c.nodes)
                            if (n.totalNs > 0) {
                                r.run.nodes.emplace_back(n.id, ratio * n.totalNs);
                                r.run.wholeNs += ratio * n.totalNs;
                            }
                        runs.push_back(r);
                    }
        auto report = test::evaluateHeldOut(runs, p);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
        QCOMPARE(report->families, (std::vector<std::string>{"mlp", "gpt"}));
        QCOMPARE(report->models.size(), std::size_t(4));
        // Trained on the held-out family, the learned model would be right (ratio 1); trained on the other one only,
        // it is off by the other family's ratio (2.5 or 0.4; the fitted graph composition blurs it a little).
        for (const EvalPrediction& e : report->predictions)
            if (e.model == "costscope learned") {
                const double ratio = e.predictedNs / e.measuredNs;
                const bool ok = e.family == "mlp" ? ratio > 1.8 && ratio < 3.2 : ratio > 0.3 && ratio < 0.6;
                QVERIFY2(ok, qPrintable(QString::fromStdString(e.graph + " " + std::to_string(ratio))));
            }
        // With one family there is nothing to hold out.
        std::vector<EvalRun> one(runs.begin(), runs.begin() + 2);
        QVERIFY(!test::evaluateHeldOut(one, p).ok());
    }

    void graphCompositionIsRecoveredAndSaved()
    {
        std::vector<CompositionSample> samples;
        const GraphComposition truth{0.8, -300, 9000};
        for (int i = 1; i <= 20; ++i) {
            const double kernels = 10.0 * i, sum = 5000.0 * i * i;
            samples.push_back({sum, kernels, truth.kernelScale * sum + truth.perKernelNs * kernels + truth.fixedNs});
        }
        const GraphComposition fit = fitGraphComposition(samples);
        QVERIFY(fit.valid());
        QVERIFY(std::fabs(fit.kernelScale - 0.8) < 1e-6 && std::fabs(fit.perKernelNs + 300) < 1e-3
                && std::fabs(fit.fixedNs - 9000) < 1e-2);
        QVERIFY(!fitGraphComposition({samples.begin(), samples.begin() + 3}).valid()); // too few graphs
        DeviceProfile p = cpuTestProfile();
        p.graphComposition = fit;
        auto back = profileFromJsonText(profileToJsonText(p), "composition");
        QVERIFY(back.ok() && back->graphComposition.valid());
        QCOMPARE(back->graphComposition.fixedNs, fit.fixedNs);
        // The whole graph follows it: kernels' sum and count in, round trip out.
        const Graph g = modelZoo().front().build(1);
        const GraphCost plain = CostscopeCostModel().estimate(g, cpuTestProfile());
        const GraphCost composed = CostscopeCostModel().estimate(g, *back);
        double sum = 0, kernels = 0;
        for (const NodeCost& n : plain.nodes) {
            sum += n.kernelNs();
            kernels += n.kernelNs() > 0;
        }
        double outside = 0;
        for (const NodeCost& n : plain.nodes)
            outside += n.syncNs + n.readbackNs;
        QVERIFY(std::fabs(composed.totalNs - (fit.wholeNs(sum, kernels) + outside)) < 1e-6 * composed.totalNs);
        auto j = nlohmann::json::parse(profileToJsonText(p));
        j["graph_composition"]["kernel_scale"] = "x";
        auto bad = profileFromJsonText(j.dump(), "bad.json");
        QVERIFY(bad.ok() && !bad->graphComposition.valid() && bad->loadWarnings.size() == 1);
    }

    void zooHasFortyGraphsInSevenFamiliesThatValidate()
    {
        QVERIFY(modelZoo().size() >= 40);
        QCOMPARE(zooFamilies().size(), std::size_t(7));
        std::set<std::string> names;
        for (const ZooGraph& z : modelZoo()) {
            QVERIFY2(names.insert(z.name).second, z.name.c_str());
            const Graph g = z.build(2);
            QCOMPARE(g.name, z.name);
            for (const Node& n : g.nodes)
                QVERIFY2(n.shape.isStatic() && n.shape.rank() > 0,
                         qPrintable(QString::fromStdString(z.name + ": node " + std::to_string(n.id) + " "
                                                           + n.op.label() + " has no shape")));
        }
    }
};

QTEST_GUILESS_MAIN(TestKernelPredictor)
#include "test_kernel_predictor.moc"
