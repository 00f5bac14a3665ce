// SPDX-License-Identifier: MIT
#pragma once
// The evaluation zoo of `costscope-cli evaluate` (issue 20): graphs of several model families built in code at any
// batch, so that accuracy is measured on whole families the predictors never saw (leave-one-family-out).
// Families: mlp, gpt (pre-norm causal transformers, ONNX-export style MatMul + Add), bert (post-norm bidirectional,
// RLX style fused linear layers), resnet (residual 3x3 CNNs), vgg (plain conv stacks), mobilenet (depthwise
// separable) and shufflenet (grouped 1x1 convolutions with channel shuffle). Sizes span what real models use:
// transformer widths 256-2048 and sequences 32-1024, CNN widths 16-256.
#include "ir/graph.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace costscope {

struct ZooGraph {
    std::string family; // what leave-one-family-out holds out together
    std::string name;   // unique in the zoo: "gpt-h768-s128-l2"
    std::function<Graph(std::int64_t batch)> build;
};

const std::vector<ZooGraph>& modelZoo();

// The zoo's family names, in zoo order.
std::vector<std::string> zooFamilies();

} // namespace costscope
