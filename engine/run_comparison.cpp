// SPDX-License-Identifier: MIT
#include "run_comparison.h"
#include "fused_group_prices.h"
#include <unordered_map>

namespace costscope {

std::vector<std::optional<double>> RunComparison::measuredByNode() const
{
    std::vector<std::optional<double>> ns(graph ? graph->nodes.size() : 0);
    for (const NodeComparison& n : nodes)
        if (n.nodeIndex < ns.size())
            ns[n.nodeIndex] = n.measuredNs;
    return ns;
}

MeasuredRun RunComparison::measuredRun() const
{
    MeasuredRun run{graph, bindings, {}, static_cast<double>(whole.medianNs), hostSpeed.value_or(HostSpeed{})};
    for (const NodeComparison& n : nodes)
        run.nodes.emplace_back(n.id, n.measuredNs);
    return run;
}

TraceInput RunComparison::traceInput() const
{
    TraceInput in;
    in.measuredTrack = "measured: " + backend + ':' + std::to_string(device) + " (" + deviceName + ")";
    in.models = {{"costscope", costscopeProfile}, {"rlx", rlxProfile}};
    if (hostSpeed)
        in.models.push_back({"costscope_host_adjusted", costscopeProfile});
    for (const NodeComparison& n : nodes) {
        TraceNode t{n.id, n.measuredNs, {n.costscopeNs, n.rlxNs}, n.flops, n.bytes};
        if (hostSpeed)
            t.predictedNs.push_back(n.costscopeHostNs);
        in.nodes.push_back(std::move(t));
    }
    return in;
}

double errorPercent(double predictedNs, double measuredNs)
{
    return measuredNs > 0 ? 100.0 * (predictedNs - measuredNs) / measuredNs : 0.0;
}

Result<RunComparison> compareRun(std::shared_ptr<const Graph> graph, const Bindings& bindings, const DeviceInfo& device,
                                 const RunResult& result, const std::optional<HostProbe>& probe)
{
    auto predicted = predictRun(*graph, bindings, device.backend, {});
    if (!predicted)
        return predicted.error();
    if (probe)
        adjustForHost(*predicted, *graph, bindings, *probe);
    return compareRun(std::move(graph), bindings, device, result, *predicted);
}

RunComparison compareRun(std::shared_ptr<const Graph> graph, const Bindings& bindings, const DeviceInfo& device,
                         const RunResult& result, const RunPredictions& predicted)
{
    RunComparison c;
    c.bindings = bindings;
    c.backend = device.backend;
    c.device = device.index;
    c.deviceName = device.name;
    c.whole = result.whole;
    for (const HostTensor& out : result.outputs)
        c.outputSums.push_back(elementSum(out));
    c.rlxProfile = predicted.rlx.profile;
    c.costscopeProfile = predicted.costscope.profile;
    // What a timed run measures of each prediction (measuredPartNs: no read-back).
    c.rlxTotalNs = measuredPartNs(predicted.rlx);
    c.costscopeTotalNs = measuredPartNs(predicted.costscope);
    c.hostSpeed = predicted.hostSpeed;
    c.costscopeHostTotalNs = predicted.hostSpeed ? measuredPartNs(predicted.costscopeHost) : 0.0;
    // A local index: Graph's own lookup table is built lazily and the GUI thread may be using it.
    std::unordered_map<NodeId, std::size_t> indexOf;
    for (std::size_t i = 0; i < graph->nodes.size(); ++i)
        indexOf.emplace(graph->nodes[i].id, i);
    // A kernel of several nodes: RLX parity predicts its members' sum, the Costscope model the fused kernel's price.
    const FusedPricing fused = priceFusedGroups(*graph, bindings, predicted.costscopeProfile, predicted.costscope,
                                                fusedGroupsOf(result.perNode));
    std::size_t group = 0;
    for (const NodeTiming& t : result.perNode) {
        const auto it = indexOf.find(t.node);
        if (it == indexOf.end()) {
            group += t.fused.empty() ? 0 : 1;
            continue;
        }
        const std::size_t i = it->second;
        NodeComparison n{i,
                         t.node,
                         t.label,
                         graph->nodes[i].op.info().opClass,
                         static_cast<double>(t.ns),
                         predicted.rlx.nodes[i].totalNs,
                         predicted.costscope.nodes[i].totalNs,
                         predicted.hostSpeed ? predicted.costscopeHost.nodes[i].totalNs : 0.0,
                         predicted.costscope.nodes[i].flops,
                         predicted.costscope.nodes[i].bytes,
                         t.fused};
        if (!t.fused.empty() && group < fused.groups.size()) {
            n.costscopeNs = fused.groups[group++].fusedNs;
            for (NodeId id : t.fused)
                if (const auto m = indexOf.find(id); m != indexOf.end())
                    n.rlxNs += predicted.rlx.nodes[m->second].totalNs;
        }
        c.nodes.push_back(std::move(n));
    }
    c.graph = std::move(graph);
    return c;
}

} // namespace costscope
