// SPDX-License-Identifier: MIT
#include "fused_group_prices.h"

#include "edit/fuse_nodes.h"

#include <unordered_map>

namespace costscope {

namespace {
// A node's price inside one submission (analysis/graph_composition.h): its kernel time scaled, one kernel's
// per-kernel term, and what it adds outside its kernel (sync, read-back); its own price where the profile has no
// composition. Fusing n kernels into one saves n - 1 per-kernel terms, which the per-node predictions alone leave
// out (a bias Add after a small GEMM costs about its launch in a replayed CUDA graph, not its kernel time).
double inSubmissionNs(const NodeCost& c, const GraphComposition& comp)
{
    if (!comp.valid())
        return c.totalNs;
    const double kernel = c.kernelNs();
    return comp.kernelScale * kernel + (kernel > 0 ? comp.perKernelNs : 0.0) + (c.totalNs - kernel);
}
} // namespace

FusedPricing priceFusedGroups(const Graph& g, const Bindings& b, const DeviceProfile& profile, const GraphCost& unfused,
                              const std::vector<std::vector<NodeId>>& groups)
{
    FusedPricing out;
    out.totalNs = unfused.totalNs;
    out.cost = unfused;
    if (groups.empty())
        return out;
    Graph fusedGraph = g;
    for (const std::vector<NodeId>& members : groups) {
        FusedGroupPrice price{members, members.empty() ? 0 : members.back(), 0, 0, {}};
        for (NodeId id : members)
            if (auto pos = g.indexOf(id); pos && *pos < unfused.nodes.size())
                price.unfusedNs += inSubmissionNs(unfused.nodes[*pos], profile.graphComposition);
        auto fused = edit::fuseNodes(fusedGraph, members, &price.exit);
        if (fused)
            fusedGraph = std::move(*fused);
        else
            price.problem = fused.error().message;
        out.groups.push_back(std::move(price));
    }
    out.cost = makeCostModel("costscope")->estimate(fusedGraph, profile, b);
    out.totalNs = out.cost.totalNs;
    std::unordered_map<NodeId, double> priceOf;
    for (const NodeCost& c : out.cost.nodes)
        priceOf[c.id] = inSubmissionNs(c, profile.graphComposition);
    for (FusedGroupPrice& p : out.groups)
        p.fusedNs = p.problem.empty() ? priceOf[p.exit] : p.unfusedNs;
    return out;
}

std::vector<std::vector<NodeId>> fusedGroupsOf(const std::vector<NodeTiming>& perNode)
{
    std::vector<std::vector<NodeId>> groups;
    for (const NodeTiming& t : perNode)
        if (!t.fused.empty()) {
            groups.push_back(t.fused);
            groups.back().push_back(t.node);
        }
    return groups;
}

} // namespace costscope
