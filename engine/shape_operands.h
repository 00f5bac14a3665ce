// SPDX-License-Identifier: MIT
#pragma once

// Shape operands computed from a Loop's iteration number (its body's Slice(x, Unsqueeze(i), Unsqueeze(i + 1))) are
// not constants, and some device kernels need them to be (Vulkan's Slice takes its starts and ends at compile time).
// A body that does not compile so is compiled again with them folded: its small integer inputs made Constants of the
// values given, and each node computed from Constants alone whose result is a small integer tensor computed on the
// host (by the CPU backend) and made a Constant. The plan then holds for those input values only.

#include "ir/graph.h"
#include "tensor.h"

#include <vector>

namespace costscope {

// Whether an input tensor is folded into the plan: an integer tensor of a few elements (an index, a shape).
bool isFoldedOperand(const HostTensor& t);
// `g` with each Input node whose tensor in `given` (given[i] for the i-th Input node in node order) is a folded
// operand turned into a Constant of it, then every node that follows from Constants alone and yields a small integer
// tensor turned into a Constant of its value. Node ids, names and edges stay.
Graph withOperandsFolded(Graph g, const std::vector<HostTensor>& given);

} // namespace costscope
