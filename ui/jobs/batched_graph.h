// SPDX-License-Identifier: MIT
#pragma once
#include "ir/graph.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace costscope {

// The graph the toolbar's batch applies to. A graph with the symbol "batch" takes it as a binding. A static graph
// (an ONNX export such as ResNet-50 at batch 1) is rebatched: dim 0 of its inputs set to the batch and every shape
// inferred again (ir/rebatch.h). Where that cannot be done (no Input with a static leading dim, a constant or a
// parameter that pins the batch) the graph stays as it is and `note` says why, for the toolbar to show.
struct BatchedGraph {
    std::shared_ptr<const Graph> graph; // what to cost: the graph itself or a rebatched copy
    std::string note;                   // "" when the batch simply applies; what was done, or why not
    bool pinned = false;                // the batch control cannot change this graph
};

BatchedGraph graphAtBatch(const std::shared_ptr<const Graph>& g, std::int64_t batch);

// The batch a graph without the symbol "batch" fixes (its first Input's static dim 0); nullopt for a graph with
// the symbol or without such an Input.
std::optional<std::int64_t> fixedBatch(const Graph& g);

} // namespace costscope
