// SPDX-License-Identifier: MIT
// ONNX ops that pick or place elements by position: TopK (values, and its indices as output 1), Hardmax, OneHot,
// EyeLike and Compress. Values go through F64 (toF64) and back, indices are I64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace costscope::cpu {

namespace {
struct AxisSplit {
    std::size_t axis;
    std::int64_t outer, n, inner;
};

std::optional<AxisSplit> splitAt(const HostTensor& x, std::int64_t axis)
{
    auto a = normalizeAxis(axis, x.rank());
    if (!a)
        return std::nullopt;
    const auto u = static_cast<std::size_t>(*a);
    return AxisSplit{u, product(x.dims(), 0, u), x.dim(u), product(x.dims(), u + 1)};
}
} // namespace

KernelStatus runTopK(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto s = splitAt(x, ctx.attrs().intOr("axis", -1));
    if (!s || in.size() < 2 || in[1]->elements() != 1)
        return fail("TopK needs an axis within " + describe(x) + " and a K input of one value");
    const std::int64_t k = in[1]->valueAsInt(0);
    if (k < 0 || k > s->n)
        return fail("TopK: K = " + std::to_string(k) + " is not within the axis of " + describe(x));
    const bool largest = ctx.attrs().intOr("largest", 1) != 0;
    const HostTensor wide = toF64(ctx.pool, x);
    const double* v = wide.values<double>().data();
    Dims dims = x.dims();
    dims[s->axis] = k;
    HostTensor values(dims, DType::F64), indices(dims, DType::I64);
    std::vector<std::int64_t> order(static_cast<std::size_t>(s->n));
    for (std::int64_t o = 0; o < s->outer; ++o)
        for (std::int64_t i = 0; i < s->inner; ++i) {
            auto at = [&](std::int64_t j) { return v[(o * s->n + j) * s->inner + i]; };
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(),
                             [&](std::int64_t a, std::int64_t b) { return largest ? at(a) > at(b) : at(a) < at(b); });
            for (std::int64_t j = 0; j < k; ++j) {
                const auto dst = static_cast<std::size_t>((o * k + j) * s->inner + i);
                values.values<double>()[dst] = at(order[static_cast<std::size_t>(j)]);
                indices.values<std::int64_t>()[dst] = order[static_cast<std::size_t>(j)];
            }
        }
    if (onnxOutput(ctx) == 1) {
        out = std::move(indices);
        return ok();
    }
    return fromWide(ctx, values, x.dtype(), out);
}

KernelStatus runHardmax(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto s = splitAt(x, ctx.attrs().intOr("axis", -1));
    if (!s || s->n == 0)
        return fail("Hardmax: the axis is out of range or empty for " + describe(x));
    const HostTensor wide = toF64(ctx.pool, x);
    const double* v = wide.values<double>().data();
    HostTensor result(x.dims(), DType::F64);
    for (std::int64_t o = 0; o < s->outer; ++o)
        for (std::int64_t i = 0; i < s->inner; ++i) {
            std::int64_t best = 0;
            for (std::int64_t j = 1; j < s->n; ++j)
                if (v[(o * s->n + j) * s->inner + i] > v[(o * s->n + best) * s->inner + i])
                    best = j;
            result.values<double>()[static_cast<std::size_t>((o * s->n + best) * s->inner + i)] = 1;
        }
    return fromWide(ctx, result, x.dtype(), out);
}

KernelStatus runOneHot(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 3 || in[1]->elements() != 1 || in[2]->elements() != 2)
        return fail("OneHot needs indices, a scalar depth and two values (off, on)");
    const HostTensor& indices = *in[0];
    const auto depth = static_cast<std::int64_t>(toF64(ctx.pool, *in[1]).values<double>()[0]);
    const HostTensor values = toF64(ctx.pool, *in[2]);
    const auto rank = static_cast<std::int64_t>(indices.rank()) + 1;
    std::int64_t axis = ctx.attrs().intOr("axis", -1);
    axis = axis < 0 ? axis + rank : axis;
    if (axis < 0 || axis >= rank || depth < 0)
        return fail("OneHot: axis or depth out of range for " + describe(indices));
    Dims dims = indices.dims();
    dims.insert(dims.begin() + axis, depth);
    const std::int64_t outer = product(indices.dims(), 0, static_cast<std::size_t>(axis));
    const std::int64_t inner = product(indices.dims(), static_cast<std::size_t>(axis));
    HostTensor result(dims, DType::F64);
    std::fill(result.values<double>().begin(), result.values<double>().end(), values.values<double>()[0]);
    const HostTensor idx = toF64(ctx.pool, indices);
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
            auto hot = static_cast<std::int64_t>(idx.values<double>()[static_cast<std::size_t>(o * inner + i)]);
            hot = hot < 0 ? hot + depth : hot;
            if (hot >= 0 && hot < depth)
                result.values<double>()[static_cast<std::size_t>((o * depth + hot) * inner + i)] =
                    values.values<double>()[1];
        }
    return fromWide(ctx, result, in[2]->dtype(), out);
}

KernelStatus runEyeLike(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (x.rank() != 2)
        return fail("EyeLike needs a rank-2 input, got " + describe(x));
    const std::int64_t k = ctx.attrs().intOr("k", 0);
    HostTensor result(x.dims(), DType::F64);
    for (std::int64_t r = 0; r < x.dim(0); ++r)
        if (r + k >= 0 && r + k < x.dim(1))
            result.values<double>()[static_cast<std::size_t>(r * x.dim(1) + r + k)] = 1;
    const bool stated = ctx.attrs().has("dtype") && !ctx.node.shape.dims.empty();
    return fromWide(ctx, result, stated ? ctx.node.shape.dtype : x.dtype(), out);
}

KernelStatus runCompress(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (in.size() != 2)
        return fail("Compress needs an input and a condition");
    const HostTensor& cond = *in[1];
    const bool flat = !ctx.attrs().has("axis");
    HostTensor flatX = x;
    if (flat)
        flatX.setDims({static_cast<std::int64_t>(x.elements())});
    auto s = splitAt(flatX, flat ? 0 : ctx.attrs().intOr("axis", 0));
    if (!s)
        return fail("Compress: the axis is out of range for " + describe(x));
    std::vector<std::int64_t> kept;
    for (std::int64_t j = 0; j < s->n && j < static_cast<std::int64_t>(cond.elements()); ++j)
        if (cond.valueAsInt(static_cast<std::uint64_t>(j)) != 0)
            kept.push_back(j);
    Dims dims = flatX.dims();
    dims[s->axis] = static_cast<std::int64_t>(kept.size());
    out.reset(dims, x.dtype());
    const std::size_t es = x.elementSize(), row = static_cast<std::size_t>(s->inner) * es;
    for (std::int64_t o = 0; o < s->outer; ++o)
        for (std::size_t j = 0; j < kept.size(); ++j)
            std::memcpy(out.bytes() + (static_cast<std::size_t>(o) * kept.size() + j) * row,
                        x.bytes() + static_cast<std::size_t>(o * s->n + kept[j]) * row, row);
    return ok();
}

} // namespace costscope::cpu
