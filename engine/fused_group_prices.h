// SPDX-License-Identifier: MIT
#pragma once
// The Costscope model's price of a fused run: each group of nodes that ran as one kernel priced as that kernel (the
// what-if of edit/fuse_nodes.h, which both cost models price through analysis/fused_kernel.h), not as the sum of
// its members. `costscope-cli run --fusion on|compare` and the Run panel's fusion table compare measured times with
// these prices.

#include "analysis/cost_model.h"
#include "run_result.h"

#include <string>
#include <vector>

namespace costscope {

struct FusedGroupPrice {
    std::vector<NodeId> members; // as given; the kernel's exit is the member the fused node keeps the id of
    NodeId exit = 0;
    // The members' own predictions, summed, and the fused kernel's (unfusedNs where the group could not be fused,
    // see problem); each as the node costs inside one submission where the profile has a graph composition.
    double unfusedNs = 0;
    double fusedNs = 0;
    std::string problem; // why the what-if refused the group; empty when it priced it
};

struct FusedPricing {
    std::vector<FusedGroupPrice> groups; // in the order given
    double totalNs = 0;                  // the whole graph with every group that fused priced as its kernel
    GraphCost cost; // that estimate itself (read-back included; measuredPartNs gives what a timed run measures)
};

// `unfused`: the Costscope model's estimate of `g` under `profile` (its nodes in graph order); `groups`: the node
// ids of each kernel, disjoint. All groups are fused into one copy of the graph, which is priced once.
FusedPricing priceFusedGroups(const Graph& g, const Bindings& b, const DeviceProfile& profile, const GraphCost& unfused,
                              const std::vector<std::vector<NodeId>>& groups);

// The kernels of an instrumented run that ran several nodes: each such timing's fused nodes, then its own node.
std::vector<std::vector<NodeId>> fusedGroupsOf(const std::vector<NodeTiming>& perNode);

} // namespace costscope
