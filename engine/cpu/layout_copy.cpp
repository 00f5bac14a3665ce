// SPDX-License-Identifier: MIT
// Ops that move elements: Transpose, Narrow, Slice, Concat, Expand, Tile and Pad.
#include "cpu/broadcast.h"
#include "cpu/dtype_convert.h"

#include <algorithm>
#include <cstring>

namespace costscope::cpu {

namespace {
template <class T>
void stridedCopyTyped(ThreadPool& pool, const T* in, std::int64_t base, const Dims& strides, const Dims& outDims,
                      T* out)
{
    const std::size_t rank = outDims.size();
    if (rank == 0) {
        out[0] = in[base];
        return;
    }
    const std::int64_t inner = outDims[rank - 1];
    const std::int64_t innerStride = strides[rank - 1];
    const std::int64_t rows = inner ? product(outDims) / inner : 0;
    pool.parallelFor(rows, std::max<std::int64_t>(1, 8192 / std::max<std::int64_t>(inner, 1)),
                     [&](std::int64_t r0, std::int64_t r1) {
                         for (std::int64_t r = r0; r < r1; ++r) {
                             std::int64_t off = base, rem = r;
                             for (std::size_t d = rank - 1; d-- > 0;) {
                                 off += (rem % outDims[d]) * strides[d];
                                 rem /= outDims[d];
                             }
                             T* dst = out + r * inner;
                             if (innerStride == 1)
                                 std::memcpy(dst, in + off, static_cast<std::size_t>(inner) * sizeof(T));
                             else
                                 for (std::int64_t i = 0; i < inner; ++i)
                                     dst[i] = in[off + i * innerStride];
                         }
                     });
}

struct Bytes16 {
    std::uint64_t lo, hi;
};
} // namespace

void stridedCopy(ThreadPool& pool, const std::byte* in, std::int64_t base, const Dims& strides, const Dims& outDims,
                 std::byte* out, std::size_t es)
{
    if (product(outDims) == 0)
        return;
    auto as = [&](auto zero) {
        using T = decltype(zero);
        stridedCopyTyped(pool, reinterpret_cast<const T*>(in), base, strides, outDims, reinterpret_cast<T*>(out));
    };
    switch (es) {
    case 1: return as(std::uint8_t{});
    case 2: return as(std::uint16_t{});
    case 4: return as(std::uint32_t{});
    case 8: return as(std::uint64_t{});
    default: return as(Bytes16{});
    }
}

KernelStatus runTranspose(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const auto t = transposeView(x.dims(), ctx.attrs().intsOr("perm", {}), [&] { return describe(x); });
    if (!t)
        return t.error();
    out.reset(t->dims, x.dtype());
    stridedCopy(ctx.pool, x.bytes(), 0, t->strides, t->dims, out.bytes(), x.elementSize());
    return ok();
}

namespace {
KernelStatus sliceCopy(KernelContext& ctx, const HostTensor& x, const Dims& starts, const Dims& ends, Dims axes,
                       Dims steps, HostTensor& out)
{
    const auto w = sliceWindow(x.dims(), starts, ends, std::move(axes), std::move(steps), [&] { return describe(x); });
    if (!w)
        return w.error();
    const Dims inStrides = contiguousStrides(x.dims());
    Dims strides = inStrides;
    std::int64_t base = 0;
    for (std::size_t d = 0; d < inStrides.size(); ++d) {
        base += w->first[d] * inStrides[d];
        strides[d] = inStrides[d] * w->step[d];
    }
    out.reset(w->dims, x.dtype());
    stridedCopy(ctx.pool, x.bytes(), base, strides, w->dims, out.bytes(), x.elementSize());
    return ok();
}
} // namespace

KernelStatus runSlice(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    auto starts = intsFromAttrOrInput(ctx, in, "starts", 1);
    auto ends = intsFromAttrOrInput(ctx, in, "ends", 2);
    if (!starts || !ends)
        return fail("Slice: starts and ends are needed");
    return sliceCopy(ctx, *in[0], *starts, *ends, intsFromAttrOrInput(ctx, in, "axes", 3).value_or(Dims{}),
                     intsFromAttrOrInput(ctx, in, "steps", 4).value_or(Dims{}), out);
}

KernelStatus runNarrow(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const std::int64_t start = ctx.attrs().intOr("start", 0);
    const std::int64_t len = ctx.attrs().intOr("len", 0);
    const std::int64_t axis = ctx.attrs().intOr("axis", 0);
    auto a = normalizeAxis(axis, in[0]->rank());
    if (!a || start < 0 || len < 0 || start + len > in[0]->dim(static_cast<std::size_t>(*a)))
        return fail("Narrow: axis " + std::to_string(axis) + " start " + std::to_string(start) + " len "
                    + std::to_string(len) + " does not fit " + describe(*in[0]));
    return sliceCopy(ctx, *in[0], {start}, {start + len}, {*a}, {1}, out);
}

KernelStatus runConcat(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& first = *in[0];
    auto a = normalizeAxis(ctx.attrs().intOr("axis", 0), first.rank());
    if (!a)
        return fail("Concat: axis out of range for " + describe(first));
    const auto axis = static_cast<std::size_t>(*a);
    Dims dims = first.dims();
    dims[axis] = 0;
    for (const HostTensor* t : in) {
        bool fits = t->rank() == first.rank() && t->dtype() == first.dtype();
        for (std::size_t d = 0; fits && d < t->rank(); ++d)
            fits = d == axis || t->dim(d) == first.dim(d);
        if (!fits)
            return fail("Concat: " + describe(*t) + " does not fit " + describe(first) + " on axis "
                        + std::to_string(axis));
        dims[axis] += t->dim(axis);
    }
    out.reset(dims, first.dtype());
    const std::int64_t outer = product(dims, 0, axis);
    const std::size_t es = first.elementSize();
    const auto rowBytes = static_cast<std::size_t>(product(dims, axis)) * es;
    ctx.pool.parallelFor(outer, 1, [&](std::int64_t o0, std::int64_t o1) {
        for (std::int64_t o = o0; o < o1; ++o) {
            std::byte* dst = out.bytes() + static_cast<std::size_t>(o) * rowBytes;
            for (const HostTensor* t : in) {
                const auto chunk = static_cast<std::size_t>(product(t->dims(), axis)) * es;
                std::memcpy(dst, t->bytes() + static_cast<std::size_t>(o) * chunk, chunk);
                dst += chunk;
            }
        }
    });
    return ok();
}

KernelStatus runExpand(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto target = intsFromAttrOrInput(ctx, in, "target_shape", 1);
    if (!target)
        target = statedDims(ctx);
    if (!target)
        return fail("Expand: no target shape");
    auto dims = broadcastDims(x.dims(), *target);
    if (!dims)
        return fail("Expand: " + describe(x) + " does not broadcast to " + dimsString(*target));
    auto b = makeBroadcast({&x.dims(), &*dims});
    out.reset(*dims, x.dtype());
    Dims strides = b->strides[0];
    if (dims->empty())
        strides.clear();
    stridedCopy(ctx.pool, x.bytes(), 0, strides, *dims, out.bytes(), x.elementSize());
    return ok();
}

KernelStatus runTile(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    auto repeats = intsFromAttrOrInput(ctx, in, "repeats", 1);
    if (!repeats || repeats->size() != x.rank())
        return fail("Tile: repeats must have one entry per dim of " + describe(x));
    Dims dims = x.dims();
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if ((*repeats)[i] < 0)
            return fail("Tile: negative repeat");
        dims[i] *= (*repeats)[i];
    }
    out.reset(dims, x.dtype());
    const Dims inStrides = contiguousStrides(x.dims());
    const std::size_t es = x.elementSize();
    const std::int64_t n = product(dims);
    ctx.pool.parallelFor(n, 4096, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t i = s; i < e; ++i) {
            std::int64_t rem = i, off = 0;
            for (std::size_t d = dims.size(); d-- > 0;) {
                off += (rem % dims[d]) % x.dim(d) * inStrides[d];
                rem /= dims[d];
            }
            const std::byte* src = x.bytes() + static_cast<std::size_t>(off) * es;
            std::memcpy(out.bytes() + static_cast<std::size_t>(i) * es, src, es);
        }
    });
    return ok();
}

namespace {
// Opset 18 pads for some axes, as pads for every dim.
std::optional<Dims> padsOfAxes(const Dims& pads, const std::optional<Dims>& axes, std::size_t rank)
{
    if (!axes || pads.size() != 2 * axes->size())
        return std::nullopt;
    Dims full(2 * rank, 0);
    for (std::size_t i = 0; i < axes->size(); ++i) {
        auto axis = normalizeAxis((*axes)[i], rank);
        if (!axis)
            return std::nullopt;
        full[static_cast<std::size_t>(*axis)] = pads[i];
        full[static_cast<std::size_t>(*axis) + rank] = pads[axes->size() + i];
    }
    return full;
}
} // namespace

KernelStatus runPad(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const bool axesInput = ctx.attrs().getBool("axes_input").value_or(false);
    auto pads = intsFromAttrOrInput(ctx, in, "pads", 1);
    const std::size_t rank = x.rank();
    if (pads && (ctx.attrs().has("axes") || axesInput)) {
        auto expanded = padsOfAxes(
            *pads, axesInput ? intsFromAttrOrInput(ctx, in, "", in.size() - 1) : ctx.attrs().getInts("axes"), rank);
        if (!expanded)
            return fail("Pad: pads " + dimsString(*pads) + " and axes do not fit " + describe(x));
        pads = expanded;
    }
    if (!pads || pads->size() != 2 * rank)
        return fail("Pad: pads must hold 2 x rank values for " + describe(x));
    const std::string mode = ctx.attrs().stringOr("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        return fail("Pad: unknown mode '" + mode + "'");
    double value = ctx.attrs().doubleOr("value", 0.0);
    if (!ctx.attrs().has("value") && in.size() > 2 && in[2]->elements() == 1)
        value = in[2]->valueAsDouble(0);
    enum class Mode { Constant, Edge, Reflect, Wrap };
    const Mode m = mode == "constant" ? Mode::Constant
                   : mode == "edge"   ? Mode::Edge
                   : mode == "wrap"   ? Mode::Wrap
                                      : Mode::Reflect;
    Dims dims(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        dims[d] = x.dim(d) + (*pads)[d] + (*pads)[d + rank];
        if (dims[d] < 0 || (mode != "constant" && x.dim(d) == 0 && dims[d] > 0))
            return fail("Pad: pads " + dimsString(*pads) + " do not fit " + describe(x));
    }
    out.reset(dims, x.dtype());
    HostTensor fill({}, x.dtype());
    if (const HostTensor wide = HostTensor::fromBytes({}, DType::F64, &value, sizeof value); isConvertible(x.dtype()))
        convertTensor(ctx.pool, wide, x.dtype(), fill);
    const Dims inStrides = contiguousStrides(x.dims());
    const std::size_t es = x.elementSize();
    ctx.pool.parallelFor(product(dims), 4096, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t i = s; i < e; ++i) {
            std::int64_t rem = i, off = 0;
            bool outside = false;
            for (std::size_t d = rank; d-- > 0;) {
                std::int64_t k = rem % dims[d] - (*pads)[d];
                rem /= dims[d];
                const std::int64_t n = x.dim(d);
                if (k < 0 || k >= n) {
                    if (m == Mode::Constant)
                        outside = true;
                    else if (m == Mode::Edge)
                        k = std::clamp<std::int64_t>(k, 0, n - 1);
                    else if (m == Mode::Wrap)
                        k = ((k % n) + n) % n;
                    else if (n > 1) {
                        const std::int64_t period = 2 * (n - 1);
                        k = ((k % period) + period) % period;
                        k = k < n ? k : period - k;
                    } else
                        k = 0;
                }
                off += k * inStrides[d];
            }
            const std::byte* src = outside ? fill.bytes() : x.bytes() + static_cast<std::size_t>(off) * es;
            std::memcpy(out.bytes() + static_cast<std::size_t>(i) * es, src, es);
        }
    });
    return ok();
}

} // namespace costscope::cpu
