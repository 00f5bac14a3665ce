// SPDX-License-Identifier: MIT
#include "shape_util.h"

#include <algorithm>

namespace costscope {

namespace {
// One axis of a Slice with ONNX's clamping: returns the element count and sets `first` to the first index read.
std::int64_t sliceAxis(std::int64_t dim, std::int64_t start, std::int64_t end, std::int64_t step, std::int64_t& first)
{
    if (start < 0)
        start += dim;
    if (end < 0)
        end += dim;
    if (step > 0) {
        start = std::clamp<std::int64_t>(start, 0, dim);
        end = std::clamp<std::int64_t>(end, 0, dim);
    } else {
        start = std::clamp<std::int64_t>(start, 0, dim - 1);
        end = std::clamp<std::int64_t>(end, -1, dim - 1);
    }
    first = start;
    const std::int64_t len = step > 0 ? (end - start + step - 1) / step : (start - end + (-step) - 1) / (-step);
    return std::max<std::int64_t>(len, 0);
}
} // namespace

std::int64_t product(const std::vector<std::int64_t>& d, std::size_t from, std::size_t to)
{
    std::int64_t p = 1;
    for (std::size_t i = from; i < std::min(to, d.size()); ++i)
        p *= d[i];
    return p;
}

std::optional<std::vector<std::int64_t>> resolvedDims(const Shape& s, const Bindings& bindings)
{
    std::vector<std::int64_t> dims;
    for (const Dim& d : s.dims) {
        auto v = d.resolve(bindings);
        if (!v || *v < 0)
            return std::nullopt;
        dims.push_back(*v);
    }
    return dims;
}

std::string dimsString(const std::vector<std::int64_t>& d)
{
    std::string s = "[";
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (i)
            s += ',';
        s += std::to_string(d[i]);
    }
    return s + "]";
}

std::optional<std::int64_t> normalizeAxis(std::int64_t axis, std::size_t rank)
{
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= r)
        return std::nullopt;
    return axis < 0 ? axis + r : axis;
}

std::vector<std::int64_t> contiguousStrides(const std::vector<std::int64_t>& dims)
{
    std::vector<std::int64_t> s(dims.size(), 1);
    for (std::size_t i = dims.size(); i-- > 1;)
        s[i - 1] = s[i] * dims[i];
    return s;
}

Result<SliceWindow> sliceWindow(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& starts,
                                const std::vector<std::int64_t>& ends, std::vector<std::int64_t> axes,
                                std::vector<std::int64_t> steps, const std::function<std::string()>& describeInput)
{
    if (axes.empty())
        for (std::size_t i = 0; i < starts.size(); ++i)
            axes.push_back(static_cast<std::int64_t>(i));
    if (steps.empty())
        steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        return Diagnostic::error("Slice: starts, ends, axes and steps differ in length");
    SliceWindow w{in, std::vector<std::int64_t>(in.size(), 0), std::vector<std::int64_t>(in.size(), 1)};
    for (std::size_t i = 0; i < starts.size(); ++i) {
        auto a = normalizeAxis(axes[i], in.size());
        if (!a || steps[i] == 0)
            return Diagnostic::error("Slice: bad axis " + std::to_string(axes[i]) + " or zero step for "
                                     + describeInput());
        const auto ax = static_cast<std::size_t>(*a);
        w.dims[ax] = sliceAxis(in[ax], starts[i], ends[i], steps[i], w.first[ax]);
        w.step[ax] = steps[i];
    }
    return w;
}

std::int64_t pooledSize(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d, std::int64_t pb,
                        std::int64_t pe, bool ceil)
{
    const std::int64_t span = d * (k - 1) + 1;
    const std::int64_t room = in + pb + pe - span;
    if (room < 0)
        return 0;
    std::int64_t out = (ceil ? (room + s - 1) / s : room / s) + 1;
    if (ceil && (out - 1) * s >= in + pb)
        --out; // the last window must start inside the input or its leading pad (PyTorch and ONNX agree)
    return out;
}

} // namespace costscope
