// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"
#include "tensor.h"

#include <cstdint>

namespace costscope {

// Deterministic small-magnitude values for a Param without data: the same for every run, backend and machine
// (a fixed-seed integer hash of (seed, index), mapped to [-0.05, 0.05) for floats, F16 and BF16 rounding the F32
// values, and {0, 1} for integers).
// `seed` is usually the node id so that different parameters differ.
void fillSynthetic(HostTensor& t, std::uint64_t seed);

// The values of Param or Constant `n` in `dims`: its data where the file had them (the byte count must match), else
// fillSynthetic's seeded with its id. Every backend uploads these, so that all run on the same weights.
Result<HostTensor> parameterValues(const Node& n, std::vector<std::int64_t> dims);

// The ONNX backend-test rule for graph inputs: arange(n)/n in the tensor's shape for floats (F16 and BF16 rounded
// from F32); integers and bools get the same values truncated (all zero), which keeps indices in range.
HostTensor arangeInput(const std::vector<std::int64_t>& dims, DType dtype);

} // namespace costscope
