// SPDX-License-Identifier: MIT
// ONNX GroupNormalization (opset 18: scale and bias per group; opset 21: per channel, told apart by their size) and
// the Mean and InvStdDev outputs of LayerNormalization (outputs 1 and 2, a node each). Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cmath>

namespace costscope::cpu {

KernelStatus runGroupNormalization(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const std::int64_t groups = ctx.attrs().intOr("num_groups", 0);
    if (x.rank() < 2 || in.size() < 3 || groups <= 0 || x.dim(1) % groups != 0)
        return fail("GroupNormalization needs X, scale and bias and num_groups dividing the channels of "
                    + describe(x));
    const std::int64_t channels = x.dim(1), spatial = product(x.dims(), 2), perGroup = channels / groups;
    const auto scaleCount = static_cast<std::int64_t>(in[1]->elements());
    if (scaleCount != channels && scaleCount != groups)
        return fail("GroupNormalization: scale has " + std::to_string(scaleCount) + " values, neither "
                    + std::to_string(channels) + " channels nor " + std::to_string(groups) + " groups");
    const bool perChannel = scaleCount == channels;
    const double eps = ctx.attrs().doubleOr("epsilon", 1e-5);
    const HostTensor wide = toF64(ctx.pool, x), scale = toF64(ctx.pool, *in[1]), bias = toF64(ctx.pool, *in[2]);
    const double* src = wide.values<double>().data();
    HostTensor result(x.dims(), DType::F64);
    double* dst = result.values<double>().data();
    const std::int64_t count = perGroup * spatial;
    for (std::int64_t ng = 0; ng < x.dim(0) * groups; ++ng) {
        const double* g = src + ng * count;
        double mean = 0, var = 0;
        for (std::int64_t i = 0; i < count; ++i)
            mean += g[i];
        mean /= static_cast<double>(count);
        for (std::int64_t i = 0; i < count; ++i)
            var += (g[i] - mean) * (g[i] - mean);
        const double inv = 1 / std::sqrt(var / static_cast<double>(count) + eps);
        for (std::int64_t i = 0; i < count; ++i) {
            const std::int64_t c = (ng % groups) * perGroup + i / spatial;
            const std::uint64_t p = static_cast<std::uint64_t>(perChannel ? c : ng % groups);
            dst[ng * count + i] = (g[i] - mean) * inv * scale.values<double>()[p] + bias.values<double>()[p];
        }
    }
    return fromWide(ctx, result, x.dtype(), out);
}

KernelStatus runLayerNormalizationOutputs(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& x = *in[0];
    const std::int64_t which = onnxOutput(ctx);
    auto axis = normalizeAxis(ctx.attrs().intOr("axis", -1), x.rank());
    if (which < 1 || which > 2 || !axis)
        return fail("LayerNormalization: no output " + std::to_string(which) + " for " + describe(x));
    const auto a = static_cast<std::size_t>(*axis);
    const std::int64_t rows = product(x.dims(), 0, a), n = product(x.dims(), a);
    const double eps = ctx.attrs().doubleOr("epsilon", 1e-5);
    Dims dims = x.dims();
    for (std::size_t d = a; d < dims.size(); ++d)
        dims[d] = 1;
    const HostTensor wide = toF64(ctx.pool, x);
    const double* src = wide.values<double>().data();
    HostTensor result(dims, DType::F64);
    for (std::int64_t r = 0; r < rows; ++r) {
        double mean = 0, var = 0;
        for (std::int64_t i = 0; i < n; ++i)
            mean += src[r * n + i];
        mean /= static_cast<double>(n);
        for (std::int64_t i = 0; i < n; ++i)
            var += (src[r * n + i] - mean) * (src[r * n + i] - mean);
        result.values<double>()[static_cast<std::size_t>(r)] =
            which == 1 ? mean : 1 / std::sqrt(var / static_cast<double>(n) + eps);
    }
    // Mean and InvStdDev are of the stash type (F32 unless stated), whatever X is.
    return fromWide(ctx, result, ctx.node.shape.dtype, out);
}

} // namespace costscope::cpu
