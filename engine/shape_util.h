// SPDX-License-Identifier: MIT
#pragma once
// Dims arithmetic every backend (CPU, CUDA, Vulkan) does the same way. One copy, so that the backends cannot drift
// apart on a clamping or rounding rule; the plugins link it through costscope_engine.

#include "ir/diagnostic.h"
#include "ir/shape.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// Product of d[from, min(to, rank)).
std::int64_t product(const std::vector<std::int64_t>& d, std::size_t from = 0, std::size_t to = SIZE_MAX);
// "[2,3,4]", for error messages.
std::string dimsString(const std::vector<std::int64_t>& d);
// Axis in [-rank, rank) made non-negative; nullopt when out of range.
std::optional<std::int64_t> normalizeAxis(std::int64_t axis, std::size_t rank);
// The shape's dims with the bindings applied; nullopt when one does not resolve to a size (>= 0).
std::optional<std::vector<std::int64_t>> resolvedDims(const Shape& s, const Bindings& bindings);
// Row-major element strides of dims.
std::vector<std::int64_t> contiguousStrides(const std::vector<std::int64_t>& dims);
// A Slice over an input of dims `in`: per dim its extent, the first index read and the step (a dim it does not
// slice: whole, 0, 1). Empty `axes` are 0, 1, ... and empty `steps` all 1 (ONNX). The errors name the lists that
// differ in length, or the bad axis or zero step and the input (`describeInput`, asked only then).
struct SliceWindow {
    std::vector<std::int64_t> dims, first, step;
};
Result<SliceWindow> sliceWindow(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& starts,
                                const std::vector<std::int64_t>& ends, std::vector<std::int64_t> axes,
                                std::vector<std::int64_t> steps, const std::function<std::string()>& describeInput);
// NumPy broadcasting of two dims; nullopt when they do not broadcast.
std::optional<std::vector<std::int64_t>> broadcastDims(const std::vector<std::int64_t>& a,
                                                       const std::vector<std::int64_t>& b);
// MatMul's dims as numpy.matmul reads them: a rank-1 operand is promoted (a to [1, K], b to [K, 1]) and that unit
// dim left out of the product again; the batch dims (all but the last two) broadcast. The errors name the operands
// by `describeOperand(0)` and `describeOperand(1)`, asked only then.
struct MatMulDims {
    std::int64_t m = 0, k = 0, n = 0;
    std::vector<std::int64_t> aBatch, bBatch, batch; // batch: aBatch and bBatch broadcast
    std::vector<std::int64_t> out;                   // batch, then m unless a is a vector, then n unless b is
};
Result<MatMulDims> matmulDims(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b,
                              const std::function<std::string(std::size_t operand)>& describeOperand);
// Transpose of an input of dims `in`: the output dims and, per output dim, the input's stride. An empty `perm` is
// the reversed axes; negative entries count from the end. The errors name `perm` and the input (`describeInput`,
// asked only then).
struct TransposeView {
    std::vector<std::int64_t> dims, strides;
};
Result<TransposeView> transposeView(const std::vector<std::int64_t>& in, std::vector<std::int64_t> perm,
                                    const std::function<std::string()>& describeInput);
// Output extent of one pooled spatial dim: input `in`, kernel `k`, stride `s`, dilation `d`, pads `pb`/`pe`;
// 0 when the window does not fit.
std::int64_t pooledSize(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d, std::int64_t pb,
                        std::int64_t pe, bool ceil);

} // namespace costscope
