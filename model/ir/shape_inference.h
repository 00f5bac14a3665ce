// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <vector>

namespace costscope {

// Output shape of `op` applied to inputs of these shapes, or an error that says what does not fit
// ("Conv: input has 3 channels, weight expects 4"). Symbolic dims flow through where the op allows.
// `inputNodes` (optional, parallel to inputs) gives Constant/Param values for ops whose shape depends on them.
// An error of Warning severity means the shape cannot be told (leaf, op without a rule, value input without data);
// Error severity means the inputs do not fit the op. A symbolic size a rule cannot simplify becomes a derived symbol
// ("seq+2", "batch*4", "conv(h)"), which no binding resolves.
Result<Shape> inferShape(const Op& op, const std::vector<Shape>& inputs,
                         const std::vector<const Node*>& inputNodes = {});

// Infers every node of g in topological order and compares with the shape each node states. A mismatch is a
// warning naming the node; an op whose shape cannot be inferred (unknown ops) is skipped silently.
Diagnostics checkStatedShapes(const Graph& g);

} // namespace costscope
