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

// Infers every node of g in topological order from its inputs' stated shapes and compares with the shape the node
// states (dims and dtype). A mismatch ("stated shape F32[2,8] but inputs give F32[2,10]") or inputs that do not fit
// the op are warnings naming the node; a node whose shape cannot be told (leaf, unknown or custom op, value input
// without data) is skipped silently. A stated static dim against an inferred symbol is not a mismatch.
Diagnostics checkStatedShapes(const Graph& g);

} // namespace costscope
