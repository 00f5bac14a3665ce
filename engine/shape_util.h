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
// Output extent of one pooled spatial dim: input `in`, kernel `k`, stride `s`, dilation `d`, pads `pb`/`pe`;
// 0 when the window does not fit.
std::int64_t pooledSize(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d, std::int64_t pb,
                        std::int64_t pe, bool ceil);

} // namespace costscope
