// SPDX-License-Identifier: MIT
#pragma once
// Where the time goes: the costliest nodes with their share of the whole (costscope-cli analyze --top, the GUI's
// Top nodes dock).

#include "analysis/cost_model.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace costscope {

enum class TopRanking { Predicted, Measured };

struct TopNode {
    std::size_t index = 0; // graph position
    NodeId id = 0;
    double predictedNs = 0;
    double predictedShare = 0; // of all nodes' predicted ns, 0..1
    std::optional<double> measuredNs;
    std::optional<double> measuredShare; // of all measured nodes' ns
    double cumulativeShare = 0;          // of this node and those ranked above it, in the ranking's terms
};

struct TopNodes {
    double predictedTotalNs = 0; // sum over the costed nodes
    std::optional<double> measuredTotalNs;
    std::vector<TopNode> nodes; // most costly first
};

// The `n` costliest nodes of `cost` by prediction, or by measurement (`measuredNs` per graph position, nullopt where
// not timed; may be empty). Nodes with nothing to rank them by (skipped, zero, not timed) are left out; ties go to
// the earlier node.
TopNodes topNodes(const GraphCost& cost, const std::vector<std::optional<double>>& measuredNs, std::size_t n,
                  TopRanking by = TopRanking::Predicted);

// The predicted time of one op class (opClassName) summed over its costed nodes.
struct OpClassShare {
    OpClass opClass = OpClass::Unknown;
    std::size_t nodes = 0;
    double predictedNs = 0;
    double share = 0;           // of all costed nodes' predicted ns, 0..1
    double cumulativeShare = 0; // of this class and those above it
};

// Every op class with a predicted time, costliest first (`cost` is of `g`, in graph order).
std::vector<OpClassShare> opClassShares(const Graph& g, const GraphCost& cost);

} // namespace costscope
