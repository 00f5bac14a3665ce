// SPDX-License-Identifier: MIT
// Normalisations over F32: LayerNorm, RmsNorm, BatchNorm (inference), InstanceNorm and Lrn.
#include "cpu/kernel.h"

#include <algorithm>
#include <cmath>

namespace costscope::cpu {

namespace {
// y = (x - mean) / sqrt(var + eps) * scale + bias over rows of `n` contiguous elements; scale/bias (optional)
// hold `n` values (per element of the row) or one per row when perRow.
void normalizeRows(ThreadPool& pool, const float* x, float* y, std::int64_t rows, std::int64_t n, double eps,
                   const float* scale, const float* bias, bool rms, std::int64_t paramsPerRow = 0)
{
    pool.parallelFor(rows, 4, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t r = s; r < e; ++r) {
            const float* xr = x + r * n;
            float* yr = y + r * n;
            double mean = 0, var = 0;
            if (!rms) {
                for (std::int64_t i = 0; i < n; ++i)
                    mean += xr[i];
                mean /= double(n);
            }
            for (std::int64_t i = 0; i < n; ++i)
                var += (xr[i] - mean) * (xr[i] - mean);
            var /= double(n);
            const double inv = 1.0 / std::sqrt(var + eps);
            for (std::int64_t i = 0; i < n; ++i) {
                const std::int64_t p = paramsPerRow ? r % paramsPerRow : i;
                const double g = scale ? scale[p] : 1.0;
                const double b = bias ? bias[p] : 0.0;
                yr[i] = static_cast<float>((xr[i] - mean) * inv * g + b);
            }
        }
    });
}

const float* optionalParam(const Inputs& in, std::size_t i, std::int64_t n)
{
    if (i >= in.size() || in[i]->dtype() != DType::F32 || static_cast<std::int64_t>(in[i]->elements()) != n)
        return nullptr;
    return in[i]->values<float>().data();
}

KernelStatus checkParams(const Inputs& in, std::size_t from, std::int64_t n, const char* op)
{
    for (std::size_t i = from; i < in.size(); ++i)
        if (in[i]->dtype() != DType::F32 || static_cast<std::int64_t>(in[i]->elements()) != n)
            return fail(std::string(op) + ": parameter " + describe(*in[i]) + " must hold " + std::to_string(n)
                        + " F32 values");
    return ok();
}
} // namespace

KernelStatus runLayerNorm(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (auto s = requireDType(x, DType::F32, "LayerNorm input"); !s)
        return s;
    auto a = normalizeAxis(ctx.attrs().intOr("axis", -1), x.rank());
    if (!a)
        return fail("LayerNorm: axis out of range for " + describe(x));
    const std::int64_t n = product(x.dims(), static_cast<std::size_t>(*a));
    if (auto s = checkParams(in, 1, n, "LayerNorm"); !s)
        return s;
    out.reset(x.dims(), DType::F32);
    const std::int64_t rows = n ? product(x.dims()) / n : 0;
    normalizeRows(ctx.pool, x.values<float>().data(), out.values<float>().data(), rows, n,
                  ctx.attrs().doubleOr("eps", 1e-5), optionalParam(in, 1, n), optionalParam(in, 2, n), false);
    return ok();
}

KernelStatus runRmsNorm(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (auto s = requireDType(x, DType::F32, "RmsNorm input"); !s)
        return s;
    auto a = normalizeAxis(ctx.attrs().intOr("axis", -1), x.rank());
    if (!a)
        return fail("RmsNorm: axis out of range for " + describe(x));
    const std::int64_t n = product(x.dims(), static_cast<std::size_t>(*a));
    if (auto s = checkParams(in, 1, n, "RmsNorm"); !s)
        return s;
    out.reset(x.dims(), DType::F32);
    const std::int64_t rows = n ? product(x.dims()) / n : 0;
    normalizeRows(ctx.pool, x.values<float>().data(), out.values<float>().data(), rows, n,
                  ctx.attrs().doubleOr("eps", 1e-6), optionalParam(in, 1, n), nullptr, true);
    return ok();
}

KernelStatus runInstanceNorm(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (auto s = requireDType(x, DType::F32, "InstanceNorm input"); !s)
        return s;
    if (x.rank() < 2)
        return fail("InstanceNorm: input " + describe(x) + " needs [N, C, ...]");
    const std::int64_t c = x.dim(1);
    if (auto s = checkParams(in, 1, c, "InstanceNorm"); !s)
        return s;
    out.reset(x.dims(), DType::F32);
    const std::int64_t n = product(x.dims(), 2);
    normalizeRows(ctx.pool, x.values<float>().data(), out.values<float>().data(), x.dim(0) * c, n,
                  ctx.attrs().doubleOr("eps", 1e-5), in[1]->values<float>().data(), in[2]->values<float>().data(),
                  false, c);
    return ok();
}

KernelStatus runBatchNorm(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (auto s = requireDType(x, DType::F32, "BatchNorm input"); !s)
        return s;
    if (x.rank() < 2)
        return fail("BatchNorm: input " + describe(x) + " needs [N, C, ...]");
    const std::int64_t c = x.dim(1);
    if (auto s = checkParams(in, 1, c, "BatchNorm"); !s)
        return s;
    const double eps = ctx.attrs().doubleOr("eps", ctx.attrs().doubleOr("epsilon", 1e-5));
    std::vector<float> mul(static_cast<std::size_t>(c)), add(static_cast<std::size_t>(c));
    for (std::int64_t i = 0; i < c; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const double m = in[1]->values<float>()[k] / std::sqrt(double(in[4]->values<float>()[k]) + eps);
        mul[k] = static_cast<float>(m);
        add[k] = static_cast<float>(in[2]->values<float>()[k] - in[3]->values<float>()[k] * m);
    }
    out.reset(x.dims(), DType::F32);
    const std::int64_t n = product(x.dims(), 2);
    const float* src = x.values<float>().data();
    float* dst = out.values<float>().data();
    ctx.pool.parallelFor(x.dim(0) * c, 4, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t r = s; r < e; ++r) {
            const auto k = static_cast<std::size_t>(r % c);
            for (std::int64_t i = 0; i < n; ++i)
                dst[r * n + i] = src[r * n + i] * mul[k] + add[k];
        }
    });
    return ok();
}

KernelStatus runLrn(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    if (auto s = requireDType(x, DType::F32, "Lrn input"); !s)
        return s;
    if (x.rank() < 2)
        return fail("Lrn: input " + describe(x) + " needs [N, C, ...]");
    const std::int64_t size = ctx.attrs().intOr("size", 5);
    const double alpha = ctx.attrs().doubleOr("alpha", 1e-4), beta = ctx.attrs().doubleOr("beta", 0.75);
    const double bias = ctx.attrs().doubleOr("bias", 1.0);
    const std::int64_t c = x.dim(1), n = product(x.dims(), 2);
    const std::int64_t before = (size - 1) / 2, after = size - 1 - before;
    out.reset(x.dims(), DType::F32);
    const float* src = x.values<float>().data();
    float* dst = out.values<float>().data();
    ctx.pool.parallelFor(x.dim(0) * c, 1, [&](std::int64_t s, std::int64_t e) {
        for (std::int64_t r = s; r < e; ++r) {
            const std::int64_t b = r / c, ch = r % c;
            const std::int64_t lo = std::max<std::int64_t>(0, ch - before), hi = std::min(c - 1, ch + after);
            for (std::int64_t i = 0; i < n; ++i) {
                double sq = 0;
                for (std::int64_t k = lo; k <= hi; ++k) {
                    const double v = src[(b * c + k) * n + i];
                    sq += v * v;
                }
                dst[r * n + i] = static_cast<float>(src[r * n + i] / std::pow(bias + alpha / double(size) * sq, beta));
            }
        }
    });
    return ok();
}

} // namespace costscope::cpu
