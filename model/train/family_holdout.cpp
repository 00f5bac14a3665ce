// SPDX-License-Identifier: MIT
#include "train/family_holdout.h"

#include "analysis/costscope_cost_model.h"
#include "analysis/host_speed.h"
#include "analysis/kernel_samples.h"
#include "analysis/rlx_cost_model.h"
#include "train/attention_waves_fit.h"
#include "zoo/kernel_sampler.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <memory>

namespace costscope {

namespace {

constexpr const char* kRlx = "rlx parity";
constexpr const char* kAnalytic = "costscope analytic";
constexpr const char* kCorrected = "costscope class-corrected";
constexpr const char* kLearned = "costscope learned";

// The device's launch per plain run (fitGraphLaunchNs), from every run but the held-out family's.
double launchOf(const std::vector<EvalRun>& runs, const std::string& except)
{
    std::vector<InstrumentedRunTotals> totals;
    for (const EvalRun& r : runs)
        if (r.family != except && !r.run.nodes.empty()) {
            InstrumentedRunTotals t;
            for (const auto& [id, ns] : r.run.nodes)
                t.nodesNs += ns;
            t.nodes = double(r.run.nodes.size());
            t.wholeNs = r.run.wholeNs;
            totals.push_back(t);
        }
    return fitGraphLaunchNs(totals);
}

std::vector<KernelSample> samplesOf(const std::vector<EvalRun>& runs, const DeviceProfile& analytic,
                                    const std::string& except, double launchNs)
{
    std::vector<KernelSample> out;
    for (const EvalRun& r : runs)
        if (r.family != except) {
            auto s = kernelSamplesFrom(*r.run.graph, hostAdjusted(analytic, r.run.host), r.run.nodes, r.run.wholeNs,
                                       r.family, launchNs);
            out.insert(out.end(), std::make_move_iterator(s.begin()), std::make_move_iterator(s.end()));
        }
    return out;
}

// Node-level pairs (prediction, measurement less the run's instrumentation overhead) of the nodes that launch a
// kernel; `measured` from nodeTimesWithoutOverhead.
void addNodePairs(const std::map<NodeId, double>& measured, const GraphCost& cost,
                  std::vector<std::pair<double, double>>& pairs)
{
    for (const NodeCost& n : cost.nodes) {
        auto m = measured.find(n.id);
        if (m != measured.end() && n.totalNs - n.readbackNs > 0 && !n.skipped)
            pairs.emplace_back(n.totalNs - n.readbackNs, m->second);
    }
}

// How the learned kernels add up to each run's whole-graph time, fitted on every run but the held-out family's.
GraphComposition compositionOf(const std::vector<EvalRun>& runs, const DeviceProfile& learned,
                               const std::string& except)
{
    const CostscopeCostModel model;
    std::vector<CompositionSample> samples;
    for (const EvalRun& r : runs) {
        if (r.family == except)
            continue;
        const GraphCost c = model.estimate(*r.run.graph, hostAdjusted(learned, r.run.host), r.run.bindings);
        CompositionSample s;
        for (const NodeCost& n : c.nodes) {
            const double kernel = n.kernelNs();
            s.kernelNs += kernel;
            s.kernels += kernel > 0 ? 1 : 0;
        }
        s.measuredNs = r.run.wholeNs;
        samples.push_back(s);
    }
    return fitGraphComposition(samples);
}

// The profile with its attention waves fitted on the kernel sampler's runs alone (attention_waves_fit.h), where they
// hold enough attention kernels; otherwise as it is. The predictors learn their ratios to what this prices.
DeviceProfile withSampledAttentionWaves(DeviceProfile analytic, const std::vector<EvalRun>& runs,
                                        std::vector<std::string>* notes)
{
    std::vector<EvalRun> sampler;
    std::copy_if(runs.begin(), runs.end(), std::back_inserter(sampler),
                 [](const EvalRun& r) { return r.family == kSamplerFamily; });
    const AttentionWavesFit fit = fitAttentionWaves(sampler, analytic, launchOf(sampler, {}));
    if (fit.kernels >= 3)
        analytic.attentionWaves = fit.waves;
    if (notes && !fit.note.empty())
        notes->push_back(fit.note);
    return analytic;
}

struct Accumulator {
    std::vector<std::pair<double, double>> graphs, nodes;
};
// By model, and by model and family (key: model + '\n' + family).
using Accumulators = std::map<std::string, Accumulator>;
std::string familyKey(const std::string& model, const std::string& family)
{
    return model + '\n' + family;
}

} // namespace

Result<DeviceProfile> withTrainedPredictors(const DeviceProfile& calibrated, const std::vector<EvalRun>& runs,
                                            const PredictorTrainOptions& options, std::vector<std::string>* notes)
{
    const DeviceProfile analytic = withSampledAttentionWaves(analyticOnly(calibrated), runs, notes);
    auto trained = trainKernelPredictors(samplesOf(runs, analytic, {}, launchOf(runs, {})), options);
    if (!trained)
        return trained.error();
    if (notes)
        for (const std::string& s : trained->skipped)
            notes->push_back("no predictor for " + s + ": the analytic terms price it");
    DeviceProfile p = analytic;
    p.kernelPredictors = std::make_shared<const KernelPredictors>(std::move(trained->predictors));
    p.graphComposition = compositionOf(runs, p, {});
    if (notes && !p.graphComposition.valid())
        notes->push_back("no graph composition could be fitted: the nodes' sum prices whole graphs");
    return p;
}

// One run predicted by the four models, its graph and node pairs added to `acc` and its predictions to `report`.
void scoreRun(const EvalRun& r, const DeviceProfile& rlx, const DeviceProfile& analytic, const DeviceProfile& corrected,
              const DeviceProfile& learned, EvaluationReport& report, Accumulators& acc, double launchNs)
{
    const CostscopeCostModel costscope;
    const RlxCostModel rlxModel;
    // The Costscope models see the host's speed around the run (all 1 but on a probed CPU), RLX never.
    const Graph& g = *r.run.graph;
    const std::pair<const char*, GraphCost> costs[] = {
        {kRlx, rlxModel.estimate(g, rlx, r.run.bindings)},
        {kAnalytic, costscope.estimate(g, hostAdjusted(analytic, r.run.host), r.run.bindings)},
        {kCorrected, costscope.estimate(g, hostAdjusted(corrected, r.run.host), r.run.bindings)},
        {kLearned, costscope.estimate(g, hostAdjusted(learned, r.run.host), r.run.bindings)},
    };
    const std::map<NodeId, double> measured = nodeTimesWithoutOverhead(r.run.nodes, r.run.wholeNs, launchNs);
    {
        const GraphCost& cost = costs[3].second;
        for (std::size_t i = 0; i < cost.nodes.size() && i < g.nodes.size(); ++i)
            if (auto m = measured.find(cost.nodes[i].id); m != measured.end() && cost.nodes[i].totalNs > 0)
                report.worstNodes.push_back({r.family, r.graph, g.nodes[i].op.label(), r.batch, g.nodes[i].id,
                                             cost.nodes[i].totalNs - cost.nodes[i].readbackNs, m->second});
    }
    for (const auto& [model, cost] : costs) {
        const double predicted = measuredPartNs(cost);
        for (Accumulator* a : {&acc[model], &acc[familyKey(model, r.family)]}) {
            a->graphs.emplace_back(predicted, r.run.wholeNs);
            addNodePairs(measured, cost, a->nodes);
        }
        report.predictions.push_back({model, r.family, r.graph, r.batch, predicted, r.run.wholeNs});
    }
}

// The models' statistics, and the worst graphs and nodes of the learned model.
void finishReport(EvaluationReport& report, Accumulators& acc)
{
    for (const char* model : {kRlx, kAnalytic, kCorrected, kLearned}) {
        report.models.push_back({model, errorStats(acc[model].graphs), errorStats(acc[model].nodes)});
        for (const std::string& family : report.families) {
            const Accumulator& a = acc[familyKey(model, family)];
            report.byFamily.push_back({model, family, errorStats(a.graphs), errorStats(a.nodes)});
        }
    }
    for (const EvalPrediction& p : report.predictions)
        if (p.model == kLearned)
            report.worst.push_back(p);
    std::sort(report.worst.begin(), report.worst.end(), [](const EvalPrediction& a, const EvalPrediction& b) {
        return std::fabs(a.error()) > std::fabs(b.error());
    });
    if (report.worst.size() > 10)
        report.worst.resize(10);
    report.nodes = report.worstNodes;
    std::sort(report.worstNodes.begin(), report.worstNodes.end(), [](const NodeMiss& a, const NodeMiss& b) {
        return std::fabs(a.predictedNs - a.measuredNs) > std::fabs(b.predictedNs - b.measuredNs);
    });
    if (report.worstNodes.size() > 20)
        report.worstNodes.resize(20);
}

Result<EvaluationReport> evaluateLeaveFamilyOut(const std::vector<EvalRun>& runs, const DeviceProfile& calibrated,
                                                const DeviceProfile& rlx, const PredictorTrainOptions& options)
{
    EvaluationReport report;
    for (const EvalRun& r : runs)
        if (r.family != kSamplerFamily
            && std::find(report.families.begin(), report.families.end(), r.family) == report.families.end())
            report.families.push_back(r.family);
    if (report.families.size() < 2)
        return Diagnostic::error("leave-one-family-out needs runs of at least two families (got "
                                 + std::to_string(report.families.size()) + ")");
    // Fitted on the sampler's kernels only, so the same for every held-out family.
    const DeviceProfile analytic = withSampledAttentionWaves(analyticOnly(calibrated), runs, &report.notes);
    const CostscopeCostModel costscope;
    Accumulators acc;
    for (const std::string& family : report.families) {
        // Everything the held-out family is predicted with comes from the other families only.
        const double launch = launchOf(runs, family);
        auto trained = trainKernelPredictors(samplesOf(runs, analytic, family, launch), options);
        if (!trained)
            return trained.error();
        for (const std::string& s : trained->skipped)
            report.notes.push_back("without " + family + ": no predictor for " + s);
        DeviceProfile learned = analytic;
        learned.kernelPredictors = std::make_shared<const KernelPredictors>(std::move(trained->predictors));
        learned.graphComposition = compositionOf(runs, learned, family);
        std::vector<FitRun> fitRuns;
        for (const EvalRun& r : runs)
            if (r.family != family)
                fitRuns.push_back(fitRunFrom(
                    *r.run.graph, costscope.estimate(*r.run.graph, hostAdjusted(analytic, r.run.host), r.run.bindings),
                    r.run.nodes, r.run.wholeNs, launch));
        DeviceProfile corrected = analytic;
        corrected.corrections = fitCorrections(fitRuns).corrections;

        for (const EvalRun& r : runs)
            if (r.family == family)
                scoreRun(r, rlx, analytic, corrected, learned, report, acc, launch);
    }
    finishReport(report, acc);
    return report;
}

Result<EvaluationReport> evaluateProfileAsIs(const std::vector<EvalRun>& runs, const DeviceProfile& profile,
                                             const DeviceProfile& rlx)
{
    EvaluationReport report;
    for (const EvalRun& r : runs)
        if (r.family != kSamplerFamily
            && std::find(report.families.begin(), report.families.end(), r.family) == report.families.end())
            report.families.push_back(r.family);
    if (report.families.empty())
        return Diagnostic::error("no scored runs (only the kernel sampler's)");
    const DeviceProfile analytic = analyticOnly(profile);
    DeviceProfile corrected = analytic;
    corrected.corrections = profile.corrections;
    if (!profile.kernelPredictors || profile.kernelPredictors->empty())
        report.notes.push_back("profile " + profile.name + " holds no kernel predictors: learned = analytic");
    const double launch = launchOf(runs, {}); // a property of the measurements, not of the model judged
    Accumulators acc;
    for (const EvalRun& r : runs)
        if (r.family != kSamplerFamily)
            scoreRun(r, rlx, analytic, corrected, profile, report, acc, launch);
    finishReport(report, acc);
    return report;
}

} // namespace costscope
