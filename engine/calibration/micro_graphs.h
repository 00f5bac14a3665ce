// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <cstdint>

namespace costscope {

// Tiny graphs the calibration times (all F32, inputs named "a", "b", "x").
Graph matmulGraph(std::int64_t m, std::int64_t k, std::int64_t n); // a[m,k] · b[k,n]
Graph reduceGraph(std::int64_t elements);                          // Sum of x[elements] to a scalar
Graph fillGraph(std::int64_t elements);                            // Expand of x[1] to [elements]
Graph chainGraph(std::int64_t elements, int length);               // `length` Relu nodes in a chain over x

// A GPU that idles between submissions clocks down (an H200 from 1980 to under 450 MHz), and a small kernel timed
// on it runs at a fraction of the speed it has inside a graph. A calibration graph starts with this chain of
// `length` Relu nodes over [elements] floats (ids from kWarmupFirstId, the last one an output) and adds the nodes
// it times after it.
constexpr NodeId kWarmupFirstId = 1000000;
Graph warmupGraph(std::int64_t elements, int length);

} // namespace costscope
