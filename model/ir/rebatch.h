// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <cstdint>

namespace costscope {

// The graph with dim 0 of every Input set to `batch` and every node's shape re-inferred (inferShape) in
// topological order. Every Input must have a static dim 0 and all must agree (the old batch). Reshape new_shape /
// Expand target_shape entries 0 that carry the batch (an attribute or a Constant input) are scaled with it.
// An error names the first node that cannot be rebatched: an op without a shape rule, inputs that no longer
// fit, or Inputs that disagree on the batch.
Result<Graph> rebatch(const Graph& g, std::int64_t batch);

} // namespace costscope
