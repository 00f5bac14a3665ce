// SPDX-License-Identifier: MIT
// ONNX DFT (opsets 17 and 20): real [..., 1] or complex [..., 2] signals along `axis` (an attribute up to opset 19,
// default 1, which the import writes out; input 2 from opset 20, default -2), dft_length (input 1) zero-padding or
// truncating, onesided and inverse. A direct O(N^2) sum in F64: the Fft op has the fast path.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cmath>
#include <numbers>

namespace costscope::cpu {

KernelStatus runDft(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const std::size_t rank = x.rank();
    if (rank < 2 || (x.dim(rank - 1) != 1 && x.dim(rank - 1) != 2))
        return fail("DFT needs a signal [..., 1] (real) or [..., 2] (complex), got " + describe(x));
    const HostTensor* lengthT = onnxInput(ctx, in, 1);
    const HostTensor* axisT = onnxInput(ctx, in, 2);
    std::int64_t axis = ctx.attrs().getInt("axis").value_or(axisT && axisT->elements() ? axisT->valueAsInt(0) : -2);
    axis = axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis;
    if (axis < 0 || axis >= static_cast<std::int64_t>(rank) - 1)
        return fail("DFT: axis " + std::to_string(axis) + " is not a signal dim of " + describe(x));
    const auto a = static_cast<std::size_t>(axis);
    const std::int64_t n = x.dim(a);
    const bool inverse = ctx.attrs().intOr("inverse", 0) != 0, onesided = ctx.attrs().intOr("onesided", 0) != 0;
    // Inverse and onesided: the input is the first half of a Hermitian spectrum; the output is real, of dft_length
    // (by default the full spectrum's 2 (n - 1)).
    const bool hermitian = inverse && onesided;
    const std::int64_t length = lengthT && lengthT->elements() ? lengthT->valueAsInt(0) : hermitian ? 2 * (n - 1) : n;
    if (length <= 0)
        return fail("DFT: dft_length " + std::to_string(length) + " is not positive");
    const std::int64_t bins = hermitian ? length : onesided ? length / 2 + 1 : length;
    const std::int64_t complexIn = x.dim(rank - 1);
    const std::int64_t outer = product(x.dims(), 0, a), inner = product(x.dims(), a + 1, rank - 1);
    Dims dims = x.dims();
    dims[a] = bins;
    dims[rank - 1] = hermitian ? 1 : 2;
    const HostTensor wide = toF64(ctx.pool, x);
    const double* src = wide.values<double>().data();
    HostTensor result(dims, DType::F64);
    double* dst = result.values<double>().data();
    const double sign = inverse ? 1 : -1;
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i)
            for (std::int64_t k = 0; k < bins; ++k) {
                double re = 0, im = 0;
                for (std::int64_t t = 0; t < (hermitian ? length : std::min(n, length)); ++t) {
                    // Past the stored half, a Hermitian spectrum is the conjugate of its mirror.
                    const bool mirrored = hermitian && t >= n;
                    const std::int64_t at = mirrored ? length - t : t;
                    if (at >= n)
                        continue;
                    const double* v = src + ((o * n + at) * inner + i) * complexIn;
                    const double angle = sign * 2 * std::numbers::pi * static_cast<double>((k * t) % length)
                                         / static_cast<double>(length);
                    const double c = std::cos(angle), s = std::sin(angle);
                    const double vi = complexIn == 2 ? (mirrored ? -v[1] : v[1]) : 0;
                    re += v[0] * c - vi * s;
                    im += v[0] * s + vi * c;
                }
                const std::int64_t width = hermitian ? 1 : 2;
                double* w = dst + ((o * bins + k) * inner + i) * width;
                w[0] = inverse ? re / static_cast<double>(length) : re;
                if (!hermitian)
                    w[1] = inverse ? im / static_cast<double>(length) : im;
            }
    return fromWide(ctx, result, x.dtype(), out);
}

} // namespace costscope::cpu
