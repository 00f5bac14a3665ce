// SPDX-License-Identifier: MIT
// ONNX ops of few values: BitCast, CastLike (where the import could not tell the target type), the Hann, Hamming and
// Blackman windows, ReverseSequence and Mean (numpy broadcasting of any number of inputs).
#include "cpu/broadcast.h"
#include "cpu/dtype_convert.h"
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"
#include "tensor_proto.h"

#include <cmath>
#include <cstring>
#include <numbers>

namespace costscope::cpu {

KernelStatus runBitCast(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const auto to = dtypeFromOnnx(static_cast<int>(ctx.attrs().intOr("to", 0)));
    if (!to || byteSize(*to) != x.elementSize())
        return fail("BitCast: " + describe(x) + " to ONNX type " + std::to_string(ctx.attrs().intOr("to", 0))
                    + " needs a type of the same size");
    out = HostTensor::fromBytes(x.dims(), *to, x.bytes(), x.byteSize());
    return ok();
}

namespace {
KernelStatus window(KernelContext& ctx, const Inputs& in, HostTensor& out, double a0, double a1, double a2)
{
    const std::int64_t n = in[0]->valueAsInt(0);
    if (n < 0)
        return fail("a window of " + std::to_string(n) + " samples");
    const bool periodic = ctx.attrs().intOr("periodic", 1) != 0;
    const auto type = dtypeFromOnnx(static_cast<int>(ctx.attrs().intOr("output_datatype", 1)));
    if (!type)
        return fail("the window's output_datatype is not a type the CPU backend holds");
    const double d = static_cast<double>(periodic ? n : n - 1);
    HostTensor w({n}, DType::F64);
    for (std::int64_t i = 0; i < n; ++i) {
        const double t = 2 * std::numbers::pi * static_cast<double>(i) / d;
        w.values<double>()[static_cast<std::size_t>(i)] = a0 - a1 * std::cos(t) + a2 * std::cos(2 * t);
    }
    return fromWide(ctx, w, *type, out);
}
} // namespace

KernelStatus runHannWindow(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return window(ctx, in, out, 0.5, 0.5, 0);
}

KernelStatus runHammingWindow(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return window(ctx, in, out, 25.0 / 46, 21.0 / 46, 0);
}

KernelStatus runBlackmanWindow(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return window(ctx, in, out, 0.42, 0.5, 0.08);
}

KernelStatus runReverseSequence(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const std::int64_t timeAxis = ctx.attrs().intOr("time_axis", 0), batchAxis = ctx.attrs().intOr("batch_axis", 1);
    if (in.size() != 2 || x.rank() < 2 || timeAxis + batchAxis != 1 || timeAxis < 0 || batchAxis < 0)
        return fail("ReverseSequence needs an input of rank 2 or more, sequence_lens, and axes 0 and 1");
    const std::int64_t t = x.dim(static_cast<std::size_t>(timeAxis)), b = x.dim(static_cast<std::size_t>(batchAxis));
    const std::int64_t inner = product(x.dims(), 2);
    const std::size_t row = static_cast<std::size_t>(inner) * x.elementSize();
    out.reset(x.dims(), x.dtype());
    for (std::int64_t bi = 0; bi < b; ++bi) {
        const std::int64_t len = std::clamp<std::int64_t>(in[1]->valueAsInt(static_cast<std::uint64_t>(bi)), 0, t);
        for (std::int64_t ti = 0; ti < t; ++ti) {
            const std::int64_t from = ti < len ? len - 1 - ti : ti;
            auto offset = [&](std::int64_t time) {
                return static_cast<std::size_t>(timeAxis == 0 ? time * b + bi : bi * t + time) * row;
            };
            std::memcpy(out.bytes() + offset(ti), x.bytes() + offset(from), row);
        }
    }
    return ok();
}

// CastLike whose target type the import could not tell: the type of the tensor it is given.
KernelStatus runCastLike(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 2 || !isConvertible(in[0]->dtype()) || !isConvertible(in[1]->dtype()))
        return fail("CastLike needs an input and a target of real dtypes");
    if (!convertTensor(ctx.pool, *in[0], in[1]->dtype(), out))
        return fail("CastLike: cannot convert " + describe(*in[0]) + " to " + std::string(dtypeName(in[1]->dtype())));
    return ok();
}

KernelStatus runMean(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.empty())
        return fail("Mean needs an input");
    Dims dims = in[0]->dims();
    for (const HostTensor* t : in) {
        auto d = broadcastDims(dims, t->dims());
        if (!d)
            return fail("Mean: " + describe(*t) + " does not broadcast with " + dimsString(dims));
        dims = *d;
    }
    HostTensor sum(dims, DType::F64);
    double* s = sum.values<double>().data();
    for (const HostTensor* t : in) {
        const HostTensor wide = toF64(ctx.pool, *t);
        const Dims& td = t->dims();
        const Dims strides = contiguousStrides(td);
        for (std::int64_t i = 0; i < product(dims); ++i) {
            std::int64_t rem = i, offset = 0;
            for (std::size_t d = dims.size(); d-- > 0;) {
                const std::int64_t coord = rem % dims[d];
                rem /= dims[d];
                const std::size_t back = dims.size() - 1 - d;
                if (back < td.size()) {
                    const std::size_t k = td.size() - 1 - back;
                    offset += (td[k] == 1 ? 0 : coord) * strides[k];
                }
            }
            s[i] += wide.values<double>()[static_cast<std::size_t>(offset)];
        }
    }
    for (double& v : sum.values<double>())
        v /= static_cast<double>(in.size());
    return fromWide(ctx, sum, in[0]->dtype(), out);
}

} // namespace costscope::cpu
