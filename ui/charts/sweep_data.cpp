// SPDX-License-Identifier: MIT
#include "charts/sweep_data.h"
#include "analysis/rlx_profiles.h"
#include "ir/graph_summary.h"
#include "jobs/cost_job.h"
#include <algorithm>
#include <limits>

namespace costscope {

namespace {

// Charts 2 and 3: the library's gate and strategy sweeps, shaped for plotting.
void welchCurves(const SweepInputs& in, const std::vector<DeviceProfile>& set, Device focus, SweepData& out)
{
    // The Welch-peaks workload has one symbol, batch: its gate curves share chart 2's x axis only when it is batch.
    if (in.symbol == "batch")
        out.welchGates = welchGateSweep(set, in.values, in.nFft, in.k);
    WelchStrategySweep strategies = welchStrategySweep(set, focus, in.values, in.nFft, in.k, in.learned);
    out.strategyNs = std::move(strategies.ns);
    for (WelchStrategy s : strategies.pick)
        out.strategyPick.push_back(static_cast<int>(s));
}

void fuseCurves(const SweepInputs& in, SweepData& out)
{
    auto curves = fuseGateSweep(*in.graph, in.fuseNodes, in.symbol, in.values, in.base);
    if (!curves) {
        out.fuseError = curves.error().message;
        return;
    }
    for (GateCurve& c : *curves)
        c.label += " (selection)";
    out.fuseGates = std::move(*curves);
}

std::string nodeLabel(const Graph& g, NodeId id)
{
    const Node* n = g.find(id);
    if (!n)
        return "node " + std::to_string(id);
    return "%" + std::to_string(id) + " " + (n->name ? *n->name : n->op.label());
}

void shareCurves(const SweepInputs& in, const CostModel& model, const DeviceProfile& focus, SweepData& out,
                 const std::atomic<bool>* cancel)
{
    SweepRequest req;
    req.symbol = in.symbol;
    req.values = in.values;
    req.base = in.base;
    req.profiles = {focus};
    req.keepNodeCosts = true;
    const SweepResult r = runSweep(*in.graph, model, req, cancel);
    if (r.cancelled || r.costs.empty())
        return;
    const std::size_t nodeCount = r.costs.front().front().nodes.size();
    // Rank nodes by their largest share anywhere in the sweep: a node that dominates at large batch matters
    // even when it is small at batch 1.
    std::vector<double> peak(nodeCount, 0);
    for (const auto& row : r.costs) {
        const GraphCost& c = row.front();
        for (std::size_t i = 0; i < c.nodes.size() && c.totalNs > 0; ++i)
            peak[i] = std::max(peak[i], c.nodes[i].totalNs / c.totalNs);
    }
    std::vector<std::size_t> order(nodeCount);
    for (std::size_t i = 0; i < nodeCount; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return peak[a] > peak[b]; });
    order.resize(std::min<std::size_t>(order.size(), kTopNodes));
    if (in.pinnedNode) {
        const auto& nodes = r.costs.front().front().nodes;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].id == *in.pinnedNode && std::find(order.begin(), order.end(), i) == order.end())
                order.push_back(i);
    }
    ShareCurve other;
    other.label = "other nodes";
    other.other = true;
    for (std::size_t i : order) {
        ShareCurve s;
        s.node = r.costs.front().front().nodes[i].id;
        s.label = nodeLabel(*in.graph, s.node);
        out.shares.push_back(std::move(s));
    }
    for (const auto& row : r.costs) {
        const GraphCost& c = row.front();
        double rest = c.totalNs > 0 ? 1.0 : 0.0;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const double share = c.totalNs > 0 ? c.nodes[order[k]].totalNs / c.totalNs : 0.0;
            out.shares[k].share.push_back(share);
            rest -= share;
        }
        other.share.push_back(std::max(0.0, rest));
    }
    out.shares.push_back(std::move(other));
}

} // namespace

SweepData computeSweepData(const SweepInputs& in, const std::atomic<bool>* cancel)
{
    SweepData out;
    out.values = in.values;
    out.symbol = in.symbol;
    out.nFft = in.nFft;
    out.k = in.k;
    out.focusLabel = in.focusDevice;
    out.learned = in.learned;
    const auto model = makeCostModel(in.model);
    if (!model) {
        out.error = "unknown cost model '" + in.model + "'";
        return out;
    }
    SweepRequest req;
    req.symbol = in.symbol;
    req.values = in.values;
    req.base = in.base;
    req.rlxVersion = in.rlxVersion;
    for (const std::string& name : in.devices) {
        auto p = profileForDeviceName(name);
        if (!p) {
            out.error = "unknown device or profile '" + name + "'";
            return out;
        }
        out.deviceLabels.push_back(name);
        req.profiles.push_back(std::move(*p));
    }
    const auto focus = profileForDeviceName(in.focusDevice);
    if (!focus) {
        out.error = "unknown device or profile '" + in.focusDevice + "'";
        return out;
    }
    const std::vector<DeviceProfile> set = rlxProfileSet("rlx-linux");
    welchCurves(in, set, focus->device, out);
    if (!in.graph)
        return out;
    const std::vector<std::string> symbols = summarize(*in.graph).symbols;
    out.symbolInGraph = std::find(symbols.begin(), symbols.end(), in.symbol) != symbols.end();
    // Crossovers named as the series are ("apple-m3-max", not its device "Metal"), so that a label matches its curve.
    req.labels = out.deviceLabels;
    if (!req.profiles.empty())
        out.sweep = runSweep(*in.graph, *model, req, cancel);
    if (!in.fuseNodes.empty())
        fuseCurves(in, out);
    shareCurves(in, *model, *focus, out, cancel);
    out.cancelled = (cancel && cancel->load()) || out.sweep.cancelled;
    return out;
}

} // namespace costscope
