// SPDX-License-Identifier: MIT
// ONNX-only ops (findOnnxKernel): QuantizeLinear and DequantizeLinear (per tensor, per axis and blocked scales), and
// RMSNormalization (opset 23). Values are read through valueAsDouble, so any real input dtype works; the output
// takes the dtype the graph states for the node (the quantized type, or the float type of the scale).
#include "cpu/dtype_convert.h"
#include "cpu/kernel.h"
#include "cpu/narrow_round.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace costscope::cpu {

namespace {
// Which element of a scale or zero point tensor applies to element `flat` of x: the scalar, the one of x's
// coordinate along `axis` (1-D), or, blocked, the one of that coordinate / block with x's other coordinates.
struct QuantParams {
    const HostTensor* t = nullptr;
    std::size_t axis = 0;
    std::int64_t block = 0;

    std::uint64_t index(const Dims& xDims, std::int64_t flat) const
    {
        if (t->elements() == 1)
            return 0;
        if (block <= 0) {
            const std::int64_t inner = product(xDims, axis + 1);
            return static_cast<std::uint64_t>((flat / inner) % xDims[axis]);
        }
        std::int64_t at = 0, rem = flat;
        Dims coords(xDims.size());
        for (std::size_t d = xDims.size(); d-- > 0;) {
            coords[d] = rem % xDims[d];
            rem /= xDims[d];
        }
        coords[axis] /= block;
        for (std::size_t d = 0; d < xDims.size(); ++d)
            at = at * t->dim(d) + coords[d];
        return static_cast<std::uint64_t>(at);
    }
};

Result<QuantParams> quantParams(const KernelContext& ctx, const HostTensor& x, const HostTensor* t, const char* what)
{
    QuantParams p;
    p.t = t;
    p.block = ctx.attrs().intOr("block_size", 0);
    if (t->elements() == 1)
        return p; // per tensor: the axis (default 1, past a 1-D x) does not apply
    auto axis = normalizeAxis(ctx.attrs().intOr("axis", 1), std::max<std::size_t>(x.rank(), 1));
    if (!axis)
        return Diagnostic::error(std::string(what) + ": axis is out of range for " + describe(x));
    p.axis = static_cast<std::size_t>(*axis);
    const bool perAxis = p.block <= 0 && t->rank() == 1 && p.axis < x.rank() && t->dim(0) == x.dim(p.axis);
    bool blocked = p.block > 0 && t->rank() == x.rank();
    for (std::size_t d = 0; blocked && d < x.rank(); ++d)
        blocked = d == p.axis ? t->dim(d) == (x.dim(d) + p.block - 1) / p.block : t->dim(d) == x.dim(d);
    if (!perAxis && !blocked)
        return Diagnostic::error(std::string(what) + " " + describe(*t) + " fits neither per tensor, per axis nor in "
                                 "blocks of " + std::to_string(p.block) + " with " + describe(x));
    return p;
}

// The range of an integer dtype, for saturation.
std::pair<double, double> integerRange(DType t)
{
    switch (t) {
    case DType::U8: return {0, 255};
    case DType::I8: return {-128, 127};
    case DType::I16: return {-32768, 32767};
    case DType::I32: return {-2147483648.0, 2147483647.0};
    case DType::U32: return {0, 4294967295.0};
    default: return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    }
}

KernelStatus runDequantizeLinear(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const HostTensor* scale = onnxInput(ctx, in, 1);
    const HostTensor* zero = onnxInput(ctx, in, 2);
    if (!scale)
        return fail("DequantizeLinear needs x_scale");
    auto s = quantParams(ctx, x, scale, "x_scale");
    if (!s)
        return s.error();
    QuantParams z = *s;
    z.t = zero;
    HostTensor y(x.dims(), DType::F64);
    double* yd = y.values<double>().data();
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(x.elements()); ++i) {
        const double zp = zero ? zero->valueAsDouble(z.index(x.dims(), i)) : 0.0;
        yd[i] = (x.valueAsDouble(static_cast<std::uint64_t>(i)) - zp) * scale->valueAsDouble(s->index(x.dims(), i));
    }
    const DType to = isFloating(ctx.node.shape.dtype) ? ctx.node.shape.dtype : scale->dtype();
    if (!convertTensor(ctx.pool, y, to, out))
        return fail("DequantizeLinear: cannot write " + std::string(dtypeName(to)));
    return ok();
}

// QuantizeLinear to a type held by conversion: integers saturate to their range after rounding half to even;
// floats (FLOAT8*, FLOAT4E2M1) round x / scale + zero point onto their values, saturating unless told not to.
KernelStatus quantizeToNarrow(KernelContext& ctx, const HostTensor& x, const HostTensor* scale, const QuantParams& s,
                              const HostTensor* zero, const QuantParams& z, NarrowType to, HostTensor& out)
{
    HostTensor q(x.dims(), DType::F64);
    double* qd = q.values<double>().data();
    const auto [lo, hi] = narrowIntegerRange(to);
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(x.elements()); ++i) {
        const double zp = zero ? zero->valueAsDouble(z.index(x.dims(), i)) : 0.0;
        const double v = x.valueAsDouble(static_cast<std::uint64_t>(i)) / scale->valueAsDouble(s.index(x.dims(), i));
        qd[i] = isNarrowInteger(to) ? std::clamp(std::nearbyint(v) + zp, lo, hi) : v + zp;
    }
    return writeNarrow(ctx, q, to, saturateAttr(ctx), out);
}

KernelStatus runQuantizeLinear(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const HostTensor* scale = onnxInput(ctx, in, 1);
    const HostTensor* zero = onnxInput(ctx, in, 2);
    if (!scale)
        return fail("QuantizeLinear needs y_scale");
    auto s = quantParams(ctx, x, scale, "y_scale");
    if (!s)
        return s.error();
    QuantParams z = *s;
    z.t = zero;
    auto narrow = narrowTarget(ctx, "QuantizeLinear");
    if (!narrow)
        return narrow.error();
    if (*narrow)
        return quantizeToNarrow(ctx, x, scale, *s, zero, z, **narrow, out);
    const DType to = zero ? zero->dtype() : isFloating(ctx.node.shape.dtype) ? DType::U8 : ctx.node.shape.dtype;
    if (isFloating(to))
        return fail("QuantizeLinear to " + std::string(dtypeName(to)) + " (a float type) is not supported");
    const auto [lo, hi] = integerRange(to);
    HostTensor q(x.dims(), DType::F64);
    double* qd = q.values<double>().data();
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(x.elements()); ++i) {
        const double zp = zero ? zero->valueAsDouble(z.index(x.dims(), i)) : 0.0;
        const double v = std::nearbyint(x.valueAsDouble(static_cast<std::uint64_t>(i))
                                        / scale->valueAsDouble(s->index(x.dims(), i))) + zp; // half to even
        qd[i] = std::clamp(v, lo, hi);
    }
    if (!convertTensor(ctx.pool, q, to, out))
        return fail("QuantizeLinear: cannot write " + std::string(dtypeName(to)));
    return ok();
}

KernelStatus runRmsNormalization(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const HostTensor* scale = onnxInput(ctx, in, 1);
    auto axis = normalizeAxis(ctx.attrs().intOr("axis", -1), x.rank());
    if (!axis || !scale)
        return fail("RMSNormalization needs X, scale and an axis within " + describe(x));
    const double eps = ctx.attrs().doubleOr("epsilon", 1e-5);
    const std::int64_t rows = product(x.dims(), 0, static_cast<std::size_t>(*axis));
    const std::int64_t n = product(x.dims(), static_cast<std::size_t>(*axis));
    const auto scales = static_cast<std::int64_t>(scale->elements()); // broadcast over the trailing dims
    if (scales == 0 || n % scales != 0)
        return fail("RMSNormalization: scale " + describe(*scale) + " does not cover the normalised dims of "
                    + describe(x));
    HostTensor y(x.dims(), DType::F64);
    double* yd = y.values<double>().data();
    for (std::int64_t r = 0; r < rows; ++r) {
        double sq = 0;
        for (std::int64_t j = 0; j < n; ++j) {
            const double v = x.valueAsDouble(static_cast<std::uint64_t>(r * n + j));
            sq += v * v;
        }
        const double inv = 1.0 / std::sqrt(sq / double(std::max<std::int64_t>(n, 1)) + eps);
        for (std::int64_t j = 0; j < n; ++j)
            yd[r * n + j] = x.valueAsDouble(static_cast<std::uint64_t>(r * n + j)) * inv
                * scale->valueAsDouble(static_cast<std::uint64_t>(j % scales));
    }
    if (!convertTensor(ctx.pool, y, x.dtype(), out))
        return fail("RMSNormalization: cannot write " + describe(x));
    return ok();
}
} // namespace

KernelFn findQuantizeNormKernel(std::string_view opType)
{
    if (opType == "QuantizeLinear")
        return runQuantizeLinear;
    if (opType == "DequantizeLinear")
        return runDequantizeLinear;
    if (opType == "RMSNormalization")
        return runRmsNormalization;
    return nullptr;
}

} // namespace costscope::cpu
