// SPDX-License-Identifier: MIT
#pragma once
// Sampler graphs for the kernel predictors (issue 20), in the spirit of nn-Meter: many configurations of each kernel
// class where real models live (GEMMs from batch-1 decode to large prefill, attention causal or not at sequence
// 32-1024, convolutions dense, grouped and depthwise, element-wise over 2^10-2^24 elements, norms, softmax, pooling,
// transposes). Each graph holds independent nodes of one class, every one reading its own inputs and each a graph
// output (measured runs time no read-back), so that one instrumented run times many configurations. Their family is
// "calibration": never held out,
// never scored, always in the training set.
#include "ir/graph.h"

#include <string>
#include <vector>

namespace costscope {

inline constexpr const char* kSamplerFamily = "calibration";

struct SamplerGraph {
    std::string kernelClass; // "matmul", "attention", ...
    Graph graph;
};

// `maxGflop` leaves out configurations above it (the CPU takes far smaller ones than a GPU).
std::vector<SamplerGraph> kernelSamplerGraphs(double maxGflop);

} // namespace costscope
