// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <map>
#include <string>
#include <vector>

namespace costscope {

// What `costscope-cli info` and the GUI's summary show about a graph.
struct GraphSummary {
    struct Tensor {
        NodeId id;
        std::string name;
        Shape shape;
    };
    std::string name;
    std::size_t nodeCount = 0;
    std::map<std::string, std::size_t> opHistogram; // op label → count
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
    std::size_t paramCount = 0;
    std::uint64_t paramBytes = 0;  // Params and Constants with static shapes
    std::vector<std::string> symbols;
    std::size_t unknownOps = 0;
};

GraphSummary summarize(const Graph& g);

} // namespace costscope
