// SPDX-License-Identifier: MIT
// ONNX QLinearMatMul: A and B dequantized by their scales and zero points (per tensor, or per row of A and per column
// of B), multiplied (batched as MatMul broadcasts equal batches), and quantized by y's scale and zero point, rounding
// half to even and saturating to y's integer type. Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cmath>

namespace costscope::cpu {

namespace {
// The value of a per-tensor or per-row/column quantization parameter for index `i` along its dim.
double param(const HostTensor& t, std::int64_t i)
{
    return t.elements() == 1 ? t.valueAsDouble(0) : t.valueAsDouble(static_cast<std::uint64_t>(i) % t.elements());
}

std::pair<double, double> integerRange(DType t)
{
    switch (t) {
    case DType::U8:
        return {0, 255};
    case DType::I8:
        return {-128, 127};
    case DType::I16:
        return {-32768, 32767};
    default:
        return {-2147483648.0, 2147483647.0};
    }
}
} // namespace

KernelStatus runQLinearMatMul(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (in.size() != 8 || in[0]->rank() < 2 || in[3]->rank() < 2)
        return fail("QLinearMatMul needs A, its scale and zero point, B, its scale and zero point, and y's");
    const HostTensor &a = *in[0], &b = *in[3];
    const std::int64_t m = a.dim(a.rank() - 2), k = a.dim(a.rank() - 1), n = b.dim(b.rank() - 1);
    const std::int64_t batchA = product(a.dims(), 0, a.rank() - 2), batchB = product(b.dims(), 0, b.rank() - 2);
    if (b.dim(b.rank() - 2) != k || (batchA != batchB && batchA != 1 && batchB != 1))
        return fail("QLinearMatMul: " + describe(a) + " and " + describe(b) + " do not multiply");
    const HostTensor as = toF64(ctx.pool, *in[1]), bs = toF64(ctx.pool, *in[4]), ys = toF64(ctx.pool, *in[6]);
    const HostTensor &az = *in[2], &bz = *in[5], &yz = *in[7];
    const std::int64_t batch = std::max(batchA, batchB);
    Dims dims = a.rank() >= b.rank() ? a.dims() : b.dims();
    dims[dims.size() - 2] = m;
    dims[dims.size() - 1] = n;
    out.reset(dims, yz.dtype());
    const HostTensor wa = toF64(ctx.pool, a), wb = toF64(ctx.pool, b);
    const auto [lo, hi] = integerRange(yz.dtype());
    HostTensor y(dims, DType::F64);
    for (std::int64_t p = 0; p < batch; ++p) {
        const double* pa = wa.values<double>().data() + (batchA == 1 ? 0 : p) * m * k;
        const double* pb = wb.values<double>().data() + (batchB == 1 ? 0 : p) * k * n;
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                double acc = 0;
                for (std::int64_t t = 0; t < k; ++t)
                    acc +=
                        (pa[i * k + t] - param(az, i)) * param(as, i) * (pb[t * n + j] - param(bz, j)) * param(bs, j);
                const double q = std::nearbyint(acc / param(ys, j)) + param(yz, j);
                y.values<double>()[static_cast<std::size_t>((p * m + i) * n + j)] = std::clamp(q, lo, hi);
            }
    }
    return fromWide(ctx, y, yz.dtype(), out);
}

} // namespace costscope::cpu
