// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

#include <algorithm>

namespace costscope::shape_rules {

namespace {
// ONNX writes "to the end" as INT_MAX or INT64_MAX; anything this large means the same.
constexpr std::int64_t kToEnd = 0x7fffffff;

std::int64_t clampTo(std::int64_t v, std::int64_t lo, std::int64_t hi)
{
    return std::min(std::max(v, lo), hi);
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return a <= 0 ? 0 : a / b + (a % b != 0 ? 1 : 0);
}

// Length of start:end:step over a dim of size n (ONNX Slice clamping).
std::int64_t sliceLength(std::int64_t n, std::int64_t start, std::int64_t end, std::int64_t step)
{
    if (start < 0)
        start = start < -n ? -1 - n : start + n;
    if (end < 0)
        end = end < -n ? -1 - n : end + n;
    if (step > 0)
        return ceilDiv(clampTo(end, 0, n) - clampTo(start, 0, n), step);
    return ceilDiv(clampTo(start, -1, n - 1) - clampTo(end, -1, n - 1), -step);
}

Dim sliceDim(const Dim& d, std::int64_t start, std::int64_t end, std::int64_t step)
{
    if (d.isStatic())
        return Dim::fixed(sliceLength(d.value, start, end, step));
    if (step == 1 && start == 0 && end >= kToEnd)
        return d;
    if (step > 0 && start >= 0 && end >= 0 && end < kToEnd)
        return Dim::fixed(ceilDiv(end - start, step)); // assumes the symbol is at least `end`
    if (step == 1 && start < 0 && start > -kToEnd && end >= kToEnd)
        return Dim::fixed(-start);
    return derivedDim("slice", d);
}

Result<Shape> slice(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto starts = x.intsFrom("starts", 1);
    auto ends = x.intsFrom("ends", 2);
    if (!starts || !ends)
        return x.unknowable("needs starts and ends (attributes or constant inputs)");
    std::vector<std::int64_t> axes(starts->size());
    for (std::size_t i = 0; i < axes.size(); ++i)
        axes[i] = static_cast<std::int64_t>(i);
    axes = x.intsFrom("axes", 3).value_or(axes);
    const auto steps = x.intsFrom("steps", 4).value_or(std::vector<std::int64_t>(starts->size(), 1));
    if (ends->size() != starts->size() || axes.size() != starts->size() || steps.size() != starts->size())
        return x.fail("starts, ends, axes and steps differ in length");
    Shape out = in;
    std::vector<bool> seen(in.rank(), false);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        auto a = axisOrError(x, axes[i], in.rank());
        if (!a)
            return a.error();
        if (seen[*a])
            return x.fail("axis " + std::to_string(axes[i]) + " is sliced twice");
        seen[*a] = true;
        if (steps[i] == 0 || steps[i] == INT64_MIN)
            return x.fail("step " + std::to_string(steps[i]) + " is not allowed");
        out.dims[*a] = sliceDim(in.dims[*a], (*starts)[i], (*ends)[i], steps[i]);
    }
    return out;
}

Result<Shape> narrow(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto axisAttr = x.op.attrs.getInt("axis");
    auto start = x.op.attrs.getInt("start");
    auto len = x.op.attrs.getInt("len");
    if (!axisAttr || !start || !len)
        return x.fail("attributes axis, start and len are all needed");
    auto axis = axisOrError(x, *axisAttr, in.rank());
    if (!axis)
        return axis.error();
    const Dim& d = in.dims[*axis];
    if (*len < 0 || *len > kMaxDim)
        return x.fail("len " + std::to_string(*len) + " is out of range");
    if (d.isStatic()) {
        const std::int64_t from = *start < 0 ? *start + d.value : *start;
        if (from < 0 || from > d.value || *len > d.value - from)
            return x.fail("start " + std::to_string(*start) + " + len " + std::to_string(*len) + " exceeds dim "
                          + std::to_string(*axis) + " of size " + d.toString());
    }
    Shape out = in;
    out.dims[*axis] = Dim::fixed(*len);
    return out;
}

Result<Shape> pad(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto pads = x.intsFrom("pads", 1);
    if (!pads)
        return x.unknowable("needs pads (an attribute or a constant input)");
    if (pads->size() != 2 * in.rank())
        return x.fail("pads has " + std::to_string(pads->size()) + " values, rank " + std::to_string(in.rank())
                      + " needs " + std::to_string(2 * in.rank()));
    Shape out = in;
    for (std::size_t i = 0; i < in.rank(); ++i) {
        std::int64_t both = 0;
        if (__builtin_add_overflow((*pads)[i], (*pads)[i + in.rank()], &both))
            return x.fail("pads overflow");
        auto d = offsetDim(in.dims[i], both);
        if (!d)
            return x.fail("padded dim " + std::to_string(i) + " is out of range (" + in.dims[i].toString() + " + "
                          + std::to_string(both) + ")");
        out.dims[i] = *d;
    }
    return out;
}

Result<Shape> tile(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto repeats = x.intsFrom("repeats", 1);
    if (!repeats)
        return x.unknowable("needs repeats (an attribute or a constant input)");
    if (repeats->size() != in.rank())
        return x.fail("repeats has " + std::to_string(repeats->size()) + " values, input rank is "
                      + std::to_string(in.rank()));
    Shape out = in;
    for (std::size_t i = 0; i < in.rank(); ++i) {
        if ((*repeats)[i] < 0)
            return x.fail("repeat " + std::to_string((*repeats)[i]) + " is negative");
        auto d = mulDims(in.dims[i], Dim::fixed((*repeats)[i]));
        if (!d)
            return x.fail("tiled dim " + std::to_string(i) + " overflows (over 2^62)");
        out.dims[i] = *d;
    }
    return out;
}

Result<Shape> constantOfShape(const InferInput& x)
{
    auto dims = intsOfNode(x.nodes.empty() ? nullptr : x.nodes[0]);
    if (!dims)
        return x.unknowable("needs the values of its shape input");
    auto dtype = parseDType(x.op.attrs.stringOr("dtype", "F32"));
    if (!dtype)
        return x.fail("unknown dtype \"" + x.op.attrs.stringOr("dtype", "") + "\"");
    Shape out{{}, *dtype};
    for (std::int64_t d : *dims) {
        if (d < 0 || d > kMaxDim)
            return x.fail("shape value " + std::to_string(d) + " is out of range");
        out.dims.push_back(Dim::fixed(d));
    }
    return out;
}

Result<Shape> gather(const InferInput& x)
{
    const Shape& data = x.in[0];
    const Shape& indices = x.in[1];
    auto axis = axisOrError(x, x.op.attrs.intOr("axis", 0), data.rank());
    if (!axis)
        return axis.error();
    Shape out{{data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(*axis)}, data.dtype};
    out.dims.insert(out.dims.end(), indices.dims.begin(), indices.dims.end());
    out.dims.insert(out.dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(*axis) + 1, data.dims.end());
    return out;
}

Result<Shape> gatherElements(const InferInput& x)
{
    const Shape& data = x.in[0];
    const Shape& indices = x.in[1];
    if (indices.rank() != data.rank())
        return x.fail("indices " + indices.toString() + " and data " + data.toString() + " differ in rank");
    auto axis = axisOrError(x, x.op.attrs.intOr("axis", 0), data.rank());
    if (!axis)
        return axis.error();
    return Shape{indices.dims, data.dtype};
}
} // namespace

Result<Shape> inferIndexing(const InferInput& x)
{
    switch (x.op.kind) {
    case OpKind::Slice: return slice(x);
    case OpKind::Narrow: return narrow(x);
    case OpKind::Pad: return pad(x);
    case OpKind::Tile: return tile(x);
    case OpKind::ConstantOfShape: return constantOfShape(x);
    case OpKind::Gather: return gather(x);
    default: return gatherElements(x);
    }
}

} // namespace costscope::shape_rules
