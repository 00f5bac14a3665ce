// SPDX-License-Identifier: MIT
// RLX Attention. q, k and v with heads packed in the last dim ([..., S, H*D], as RLX's cost model reads it) or per
// head ([..., H, S, D]), KV heads possibly grouped (attention_layout.h); the output has q's dims and layout. scores = q
// k^T * scale (score_scale, default 1/sqrt(D)), optional logit softcap (cap * tanh(s / cap)), then the mask, softmax
// over keys, times v. Masks: "None"; "Causal" (query i sees keys j <= i + Sk - Sq); {"SlidingWindow": w} (causal and
// within w keys); "Bias"/"Custom" with a 4th input broadcast to [..., H, Sq, Sk]: Bool means keep-where-true, numbers
// are added.
#include "attention_layout.h"
#include "cpu/broadcast.h"
#include "cpu/sgemm.h"

#include <cmath>
#include <limits>

namespace costscope::cpu {

KernelStatus runAttention(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& q = *in[0];
    const HostTensor& k = *in[1];
    const HostTensor& v = *in[2];
    for (const HostTensor* t : {&q, &k, &v})
        if (t->dtype() != DType::F32)
            return fail("Attention: " + describe(*t) + " must be F32");
    auto layout = attentionLayout(q.dims(), k.dims(), v.dims(), ctx.attrs().intOr("num_heads", 1),
                                  ctx.attrs().intOr("head_dim", 0));
    if (!layout)
        return layout.error();
    const AttentionLayout& l = *layout;
    auto mask = attentionMask(ctx.attrs());
    if (!mask)
        return fail("Attention: " + mask.error().message);
    const std::int64_t sq = l.sq, sk = l.sk, batch = l.batch, heads = l.heads, hd = l.headDim;
    std::optional<Broadcast> maskB;
    if (mask->kind == AttentionMask::Input) {
        if (in.size() < 4)
            return fail("Attention: mask_kind needs a 4th (mask) input");
        const Dims full{batch, heads, sq, sk};
        maskB = makeBroadcast({&full, &in[3]->dims()});
        if (!maskB || maskB->shape != full)
            return fail("Attention: mask " + describe(*in[3]) + " does not broadcast to " + dimsString(full));
    }
    const double scale = ctx.attrs().doubleOr("score_scale", 1.0 / std::sqrt(double(std::max<std::int64_t>(hd, 1))));
    const double cap = ctx.attrs().doubleOr("attn_logit_softcap", 0.0);
    out.reset(q.dims(), DType::F32);
    std::vector<float> scores(static_cast<std::size_t>(sq * sk));
    const float ninf = -std::numeric_limits<float>::infinity();
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t h = 0; h < heads; ++h) {
            const float* qp = q.values<float>().data() + l.q.at(b, h, 0);
            const float* kp = k.values<float>().data() + l.kv.at(b, l.kvHead(h), 0);
            const float* vp = v.values<float>().data() + l.kv.at(b, l.kvHead(h), 0);
            sgemm(ctx.pool, false, true, sq, sk, hd, static_cast<float>(scale), qp, l.q.row, kp, l.kv.row, 0.0f,
                  scores.data(), sk);
            ctx.pool.parallelFor(sq, 8, [&](std::int64_t i0, std::int64_t i1) {
                for (std::int64_t i = i0; i < i1; ++i) {
                    float* row = scores.data() + i * sk;
                    float mx = ninf;
                    for (std::int64_t j = 0; j < sk; ++j) {
                        float s = row[j];
                        if (cap > 0)
                            s = static_cast<float>(cap * std::tanh(s / cap));
                        const std::int64_t last = i + sk - sq;
                        if ((mask->kind == AttentionMask::Causal || mask->kind == AttentionMask::Window) && j > last)
                            s = ninf;
                        if (mask->kind == AttentionMask::Window && j <= last - mask->window)
                            s = ninf;
                        if (maskB) {
                            const std::int64_t off = b * maskB->strides[1][0] + h * maskB->strides[1][1]
                                + i * maskB->strides[1][2] + j * maskB->strides[1][3];
                            const double mv = in[3]->valueAsDouble(static_cast<std::uint64_t>(off));
                            s = in[3]->dtype() == DType::Bool ? (mv != 0 ? s : ninf) : s + static_cast<float>(mv);
                        }
                        row[j] = s;
                        mx = std::max(mx, s);
                    }
                    double sum = 0;
                    for (std::int64_t j = 0; j < sk; ++j) {
                        row[j] = mx == ninf ? 0.0f : std::exp(row[j] - mx);
                        sum += row[j];
                    }
                    for (std::int64_t j = 0; j < sk; ++j)
                        row[j] = sum > 0 ? static_cast<float>(row[j] / sum) : 0.0f;
                }
            });
            sgemm(ctx.pool, false, false, sq, hd, sk, 1.0f, scores.data(), sk, vp, l.kv.row, 0.0f,
                  out.values<float>().data() + l.q.at(b, h, 0), l.q.row);
        }
    return ok();
}

} // namespace costscope::cpu
