// SPDX-License-Identifier: MIT
#pragma once

// A node computed from leaves with data is the same tensor on every run: the passes that fold such nodes before a
// device plan is compiled (shape_operands.h for a Loop body's operands, shape_fold.h for a graph's shape
// computations) compute it once with the CPU backend's kernel and keep it as a Constant.

#include "ir/graph.h"
#include "tensor.h"

#include <optional>

namespace costscope {

// The value of node `n` of `g`, every input of which is a Constant or a Param with data, computed by the CPU
// backend; nullopt where the CPU backend cannot run it or it fails.
std::optional<HostTensor> evaluateOnHost(const Graph& g, const Node& n, const Bindings& bindings = {});
// Turns `n` into a Constant holding `value` (its shape and bytes), without inputs or subgraphs; id and name stay.
void makeConstant(Node& n, const HostTensor& value);

} // namespace costscope
