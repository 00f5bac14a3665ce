// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "ir/graph.h"

#include <optional>
#include <string>
#include <vector>

namespace costscope {

enum class MatchKind { Name, Structure, Id };

struct NodePair {
    std::size_t a = 0, b = 0; // node indices in A and B
    MatchKind how = MatchKind::Name;
    bool changed = false;     // op, attributes or shape differ
    std::string what;         // "op Binary(add) -> FusedMatMulBiasAct; shape ..." when changed
};

struct GraphDiff {
    std::vector<NodePair> matched;
    std::vector<std::size_t> removed; // in A only
    std::vector<std::size_t> added;   // in B only
    std::size_t changedCount() const;
};

// Nodes are matched by name (unique names only), then by structure: same op, same shape and inputs that are
// themselves matched pairs, visiting B in topological order so a chain of renamed nodes matches in one pass. Nodes
// still unmatched then pair by id where the output shape is the same (an edit or a pass that keeps ids: a fused node
// keeps the id of the set's exit, and its consumers read a new node, so their structure no longer matches), and the
// structural pass runs again from there.
GraphDiff diffGraphs(const Graph& a, const Graph& b);

struct NodeCostDelta {
    std::optional<std::size_t> a, b; // absent for added/removed nodes
    double costA = 0, costB = 0;
    double delta() const { return costB - costA; }
};

struct DeviceCostDiff {
    std::string device;
    double totalA = 0, totalB = 0;
    std::vector<NodeCostDelta> nodes; // matched, then removed, then added
};

// One DeviceCostDiff per device; costsA[i] and costsB[i] must be the same device.
std::vector<DeviceCostDiff> costDiff(const GraphDiff& d, const std::vector<GraphCost>& costsA,
                                     const std::vector<GraphCost>& costsB);

} // namespace costscope
