// SPDX-License-Identifier: MIT
// ONNX RotaryEmbedding (opset 23): X as [batch, heads, seq, size] or [batch, seq, heads*size] (num_heads), the cos
// and sin caches indexed by position_ids ([max_position, rotary/2]) or given per token ([batch, seq, rotary/2]),
// the first rotary_embedding_dim values of each head rotated in halves or interleaved pairs. Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

namespace costscope::cpu {

KernelStatus runRotaryEmbedding(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor* x = onnxInput(ctx, in, 0);
    const HostTensor* cosT = onnxInput(ctx, in, 1);
    const HostTensor* sinT = onnxInput(ctx, in, 2);
    const HostTensor* positions = onnxInput(ctx, in, 3);
    if (!x || !cosT || !sinT || (x->rank() != 3 && x->rank() != 4))
        return fail("RotaryEmbedding needs X of rank 3 or 4 and the cos and sin caches");
    const bool packed = x->rank() == 3;
    const std::int64_t batch = x->dim(0), seq = packed ? x->dim(1) : x->dim(2);
    const std::int64_t heads = packed ? ctx.attrs().intOr("num_heads", 0) : x->dim(1);
    if (heads <= 0 || (packed && x->dim(2) % heads != 0))
        return fail("RotaryEmbedding: a rank-3 X needs num_heads dividing its last dim, got " + describe(*x));
    const std::int64_t size = packed ? x->dim(2) / heads : x->dim(3);
    std::int64_t rotary = ctx.attrs().intOr("rotary_embedding_dim", 0);
    rotary = rotary > 0 ? rotary : size;
    const std::int64_t half = rotary / 2, cacheWidth = cosT->dim(cosT->rank() - 1);
    if (rotary > size || half > cacheWidth)
        return fail("RotaryEmbedding: rotary_embedding_dim " + std::to_string(rotary)
                    + " does not fit the heads or caches");
    const bool interleaved = ctx.attrs().intOr("interleaved", 0) != 0;
    const HostTensor wx = toF64(ctx.pool, *x), wc = toF64(ctx.pool, *cosT), ws = toF64(ctx.pool, *sinT);
    HostTensor result = wx;
    const double* src = wx.values<double>().data();
    double* dst = result.values<double>().data();
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t s = 0; s < seq; ++s) {
            const std::int64_t row =
                positions ? positions->valueAsInt(static_cast<std::uint64_t>(b * seq + s)) : b * seq + s;
            const double* cosRow = wc.values<double>().data() + row * cacheWidth;
            const double* sinRow = ws.values<double>().data() + row * cacheWidth;
            for (std::int64_t h = 0; h < heads; ++h) {
                const std::int64_t base =
                    packed ? (b * seq + s) * heads * size + h * size : ((b * heads + h) * seq + s) * size;
                for (std::int64_t i = 0; i < half; ++i) {
                    const std::int64_t i1 = interleaved ? 2 * i : i, i2 = interleaved ? 2 * i + 1 : i + half;
                    const double x1 = src[base + i1], x2 = src[base + i2];
                    dst[base + i1] = cosRow[i] * x1 - sinRow[i] * x2;
                    dst[base + i2] = sinRow[i] * x1 + cosRow[i] * x2;
                }
            }
        }
    return fromWide(ctx, result, x->dtype(), out);
}

} // namespace costscope::cpu
