// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <cstdint>

namespace costscope {

// Tiny graphs the calibration times (all F32, inputs named "a", "b", "x").
Graph matmulGraph(std::int64_t m, std::int64_t k, std::int64_t n); // a[m,k] · b[k,n]
Graph reduceGraph(std::int64_t elements);                          // Sum of x[elements] to a scalar
Graph fillGraph(std::int64_t elements);                            // Expand of x[1] to [elements]
Graph chainGraph(std::int64_t elements, int length,                // `length` activation nodes in a chain
                 const char* activation = "Relu");                 //   over x
// Binary Add (or another Binary op, or a two-input Sum) of a[elements] and b[elements].
Graph addGraph(std::int64_t elements, OpKind kind = OpKind::Binary, const char* binaryOp = "Add");
Graph addChainGraph(std::int64_t elements, int length);            // `length` Adds of s[1] in a chain over x
Graph reshapeGraph(std::int64_t elements);                         // Reshape of x[elements] to [elements/64, 64]
// One node over x[1, channels, size, size]: Pool 3x3 stride 1 pad 1 of `kind` (Max, Avg), or Lrn of size 5.
Graph poolGraph(std::int64_t channels, std::int64_t size, const char* kind);
Graph lrnGraph(std::int64_t channels, std::int64_t size);
Graph globalPoolGraph(std::int64_t channels, std::int64_t size); // GlobalPool Avg over x[1, channels, size, size]
// `kind` (Softmax, LayerNorm) over the last axis of x[rows, cols].
Graph rowOpGraph(OpKind kind, std::int64_t rows, std::int64_t cols);
// One Conv2d layer (square input and kernel) the calibrations time.
struct ConvLayer {
    std::int64_t batch, inChannels, size, outChannels, kernel, stride, pad;
};
// Conv of x[batch, cin, size, size] with a Param weight [cout, cin, kernel, kernel].
Graph convGraph(const ConvLayer& l);

// A GPU that idles between submissions clocks down (an H200 from 1980 to under 450 MHz), and a small kernel timed
// on it runs at a fraction of the speed it has inside a graph. A calibration graph starts with this chain of
// `length` Relu nodes over [elements] floats (ids from kWarmupFirstId, the last one an output) and adds the nodes
// it times after it.
constexpr NodeId kWarmupFirstId = 1000000;
Graph warmupGraph(std::int64_t elements, int length);

} // namespace costscope
