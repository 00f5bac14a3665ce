// SPDX-License-Identifier: MIT
#include "analysis/calibration_fit.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace costscope {

namespace {
bool usable(const FitSample& s)
{
    return s.predictedNs > 0 && s.measuredNs > 0 && std::isfinite(s.predictedNs) && std::isfinite(s.measuredNs);
}

double factorOf(const std::map<std::string, double>& corrections, const std::string& cls)
{
    auto it = corrections.find(cls);
    return it == corrections.end() ? 1.0 : it->second;
}
} // namespace

ErrorStats errorStats(const std::vector<std::pair<double, double>>& pm)
{
    ErrorStats e;
    double sum = 0;
    int in10 = 0, in25 = 0;
    for (auto [predicted, measured] : pm) {
        if (!(measured > 0))
            continue;
        const double rel = std::abs(predicted - measured) / measured;
        sum += rel;
        in10 += rel <= 0.10;
        in25 += rel <= 0.25;
        ++e.count;
    }
    if (e.count > 0) {
        e.mape = 100.0 * sum / e.count;
        e.within10 = double(in10) / e.count;
        e.within25 = double(in25) / e.count;
    }
    return e;
}

ErrorStats nodeErrors(const std::vector<FitRun>& runs, const std::map<std::string, double>& corrections)
{
    std::vector<std::pair<double, double>> pm;
    for (const FitRun& r : runs)
        for (const FitSample& s : r.nodes)
            if (usable(s))
                pm.emplace_back(s.predictedNs * factorOf(corrections, s.opClass), s.measuredNs);
    return errorStats(pm);
}

ErrorStats graphErrors(const std::vector<FitRun>& runs, const std::map<std::string, double>& corrections)
{
    std::vector<std::pair<double, double>> pm;
    for (const FitRun& r : runs) {
        double predicted = r.predictedNs;
        for (const FitSample& s : r.nodes)
            predicted += s.predictedNs * (factorOf(corrections, s.opClass) - 1.0);
        pm.emplace_back(predicted, r.measuredNs);
    }
    return errorStats(pm);
}

FitReport fitCorrections(const std::vector<FitRun>& runs, const FitOptions& o)
{
    struct Sums {
        double weightedLog = 0, weight = 0;
        int n = 0;
    };
    std::map<std::string, Sums> sums;
    for (const FitRun& r : runs) {
        double runWeight = 0; // the run's nodes share a weight of 1
        for (const FitSample& s : r.nodes)
            if (usable(s))
                runWeight += o.weightByTime ? s.measuredNs : 1.0;
        for (const FitSample& s : r.nodes)
            if (usable(s)) {
                Sums& c = sums[s.opClass];
                const double w = (o.weightByTime ? s.measuredNs : 1.0) / runWeight;
                c.weightedLog += w * std::log(s.measuredNs / s.predictedNs);
                c.weight += w;
                ++c.n;
            }
    }
    FitReport report;
    const double prior = std::max(0.0, o.priorRuns);
    for (const auto& [cls, c] : sums) {
        report.samples[cls] = c.n;
        if (c.n >= o.minSamples)
            report.corrections[cls] =
                std::clamp(std::exp(c.weightedLog / (c.weight + prior)), o.minFactor, o.maxFactor);
    }
    report.nodesBefore = nodeErrors(runs, {});
    report.nodesAfter = nodeErrors(runs, report.corrections);
    report.graphsBefore = graphErrors(runs, {});
    report.graphsAfter = graphErrors(runs, report.corrections);
    return report;
}

FitRun fitRunFrom(const Graph& g, const GraphCost& cost, const std::vector<std::pair<NodeId, double>>& measured,
                  double wholeMeasuredNs, double launchNs)
{
    std::unordered_map<NodeId, const NodeCost*> byId;
    for (const NodeCost& c : cost.nodes)
        byId[c.id] = &c;
    FitRun run;
    run.predictedNs = cost.totalNs;
    run.measuredNs = wholeMeasuredNs;
    const double overhead = instrumentationOverheadNs(measured, wholeMeasuredNs, launchNs);
    for (auto [id, ns] : measured) {
        auto it = byId.find(id);
        const Node* n = g.find(id);
        if (it == byId.end() || !n || it->second->skipped || it->second->totalNs <= 0)
            continue;
        run.nodes.push_back(
            {std::string(opClassName(n->op.info().opClass)), it->second->totalNs, withoutOverheadNs(ns, overhead)});
    }
    return run;
}

double withoutOverheadNs(double measuredNs, double overheadNs)
{
    return std::max(measuredNs - overheadNs, 0.1 * measuredNs);
}

std::map<NodeId, double> nodeTimesWithoutOverhead(const std::vector<std::pair<NodeId, double>>& measured,
                                                  double wholeMeasuredNs, double launchNs)
{
    std::map<NodeId, double> byNode;
    for (const auto& [id, ns] : measured)
        byNode[id] += ns;
    const double overhead = instrumentationOverheadNs(measured, wholeMeasuredNs, launchNs);
    for (auto& [id, ns] : byNode)
        ns = withoutOverheadNs(ns, overhead);
    return byNode;
}

double instrumentationOverheadNs(const std::vector<std::pair<NodeId, double>>& measured, double wholeMeasuredNs,
                                 double launchNs)
{
    if (measured.empty() || wholeMeasuredNs <= 0)
        return 0;
    double sum = 0;
    for (const auto& [id, ns] : measured)
        sum += ns;
    const double kernels = std::max(wholeMeasuredNs - std::max(launchNs, 0.0), 0.5 * wholeMeasuredNs);
    return std::max(0.0, (sum - kernels) / double(measured.size()));
}

double fitGraphLaunchNs(const std::vector<InstrumentedRunTotals>& runs)
{
    if (runs.size() < 6)
        return 0;
    // Weighted by 1 / whole², least squares in relative error: two runs whose plain time came out twice their
    // kernels (a clock change) and the millisecond graphs' proportional jitter otherwise set the launch (Vulkan on
    // an H200: 324 us, against 41 us measured for a submit and wait).
    double w = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const InstrumentedRunTotals& r : runs) {
        if (r.nodes <= 0 || r.wholeNs <= 0)
            continue;
        const double y = r.nodesNs - r.wholeNs, weight = 1.0 / (r.wholeNs * r.wholeNs);
        w += weight;
        sx += weight * r.nodes;
        sy += weight * y;
        sxx += weight * r.nodes * r.nodes;
        sxy += weight * r.nodes * y;
    }
    const double det = w * sxx - sx * sx;
    if (w <= 0 || det <= 1e-9 * w * sxx)
        return 0;
    const double overhead = (w * sxy - sx * sy) / det;
    // No overhead a node (the timestamps of one command buffer cost nothing measurable): the launch alone.
    const double launch = overhead > 0 ? -(sy - overhead * sx) / w : -sy / w;
    return launch > 0 ? launch : 0;
}

} // namespace costscope
