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

std::optional<std::vector<std::int64_t>> broadcastDims(const std::vector<std::int64_t>& a,
                                                       const std::vector<std::int64_t>& b)
{
    const std::size_t rank = std::max(a.size(), b.size());
    std::vector<std::int64_t> out(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            return std::nullopt;
        out[i] = da == 1 ? db : da;
    }
    return out;
}

Result<MatMulDims> matmulDims(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b,
                              const std::function<std::string(std::size_t operand)>& describeOperand)
{
    auto operands = [&](const char* between) { return describeOperand(0) + between + describeOperand(1); };
    if (a.empty() || b.empty())
        return Diagnostic::error("MatMul needs inputs of rank 1 or more, got " + operands(" and "));
    std::vector<std::int64_t> ad = a, bd = b;
    const bool aVector = ad.size() == 1, bVector = bd.size() == 1;
    if (aVector)
        ad.insert(ad.begin(), 1);
    if (bVector)
        bd.push_back(1);
    MatMulDims d;
    d.m = ad[ad.size() - 2];
    d.k = ad.back();
    d.n = bd.back();
    if (bd[bd.size() - 2] != d.k)
        return Diagnostic::error("MatMul: inner dims differ: " + operands(" x "));
    d.aBatch.assign(ad.begin(), ad.end() - 2);
    d.bBatch.assign(bd.begin(), bd.end() - 2);
    auto batch = broadcastDims(d.aBatch, d.bBatch);
    if (!batch)
        return Diagnostic::error("MatMul: batch dims do not broadcast: " + operands(" x "));
    d.batch = std::move(*batch);
    d.out = d.batch;
    if (!aVector)
        d.out.push_back(d.m);
    if (!bVector)
        d.out.push_back(d.n);
    return d;
}

Result<TransposeView> transposeView(const std::vector<std::int64_t>& in, std::vector<std::int64_t> perm,
                                    const std::function<std::string()>& describeInput)
{
    if (perm.empty())
        for (std::size_t i = in.size(); i-- > 0;)
            perm.push_back(static_cast<std::int64_t>(i));
    if (perm.size() != in.size())
        return Diagnostic::error("Transpose: perm " + dimsString(perm) + " does not fit " + describeInput());
    const std::vector<std::int64_t> inStrides = contiguousStrides(in);
    TransposeView v;
    std::vector<bool> used(in.size(), false);
    for (std::int64_t p : perm) {
        auto a = normalizeAxis(p, in.size());
        if (!a || used[static_cast<std::size_t>(*a)])
            return Diagnostic::error("Transpose: perm " + dimsString(perm) + " is not a permutation");
        used[static_cast<std::size_t>(*a)] = true;
        v.dims.push_back(in[static_cast<std::size_t>(*a)]);
        v.strides.push_back(inStrides[static_cast<std::size_t>(*a)]);
    }
    return v;
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
