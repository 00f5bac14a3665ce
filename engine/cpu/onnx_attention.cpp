// SPDX-License-Identifier: MIT
// ONNX's Attention (opset 23+), output Y: softmax(scale * Q Kᵀ (softcapped) + bias) V per batch and head, with the
// bias from attn_mask (bool or additive, right-aligned broadcast, padded with -inf to the key length), is_causal and
// the sliding window (both aligned to the bottom right: offset = past length, or nonpad_kv_seqlen - q), the
// nonpad_kv_seqlen padding, past_key/past_value prepended to K/V, and grouped-query heads. A row whose bias masks
// every key gives 0, as ONNX's reference does. Inputs of any float dtype are read as double; Y is written in Q's.
// Catalogue Attention (RLX's op, attention.cpp) is another op; this one imports as an unknown op named Attention.
#include "cpu/dtype_convert.h"
#include "cpu/kernel.h"
#include "cpu/onnx_named_kernels.h"

#include <cmath>
#include <limits>

namespace costscope::cpu {

namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// A rank-3 [batch, seq, heads*size] tensor or a rank-4 [batch, heads, seq, size] one, read by (b, h, s, d).
struct HeadView {
    const HostTensor* t = nullptr;
    std::int64_t heads = 1, seq = 0, size = 0;
    bool packed = false; // rank 3

    double at(std::int64_t b, std::int64_t h, std::int64_t s, std::int64_t d) const
    {
        const std::int64_t i = packed ? ((b * seq + s) * heads + h) * size + d : ((b * heads + h) * seq + s) * size + d;
        return t->valueAsDouble(static_cast<std::uint64_t>(i));
    }
};

Result<HeadView> headView(const HostTensor* t, std::int64_t heads, const char* what)
{
    HeadView v;
    v.t = t;
    if (t->rank() == 4) {
        v.heads = t->dim(1);
        v.seq = t->dim(2);
        v.size = t->dim(3);
        return v;
    }
    if (t->rank() != 3 || heads <= 0 || t->dim(2) % heads != 0)
        return Diagnostic::error(std::string(what) + " " + describe(*t) + " is neither [batch, heads, seq, size] nor "
                                 "[batch, seq, heads*size] with the head count attributes");
    v.packed = true;
    v.heads = heads;
    v.seq = t->dim(1);
    v.size = t->dim(2) / heads;
    return v;
}

// The additive bias attn_mask gives to (b, h, i, j); j beyond the mask's last dim is masked (padding).
double maskBias(const HostTensor* mask, std::int64_t b, std::int64_t h, std::int64_t i, std::int64_t j)
{
    if (!mask)
        return 0;
    const std::size_t r = mask->rank();
    const std::int64_t coords[4] = {b, h, i, j};
    if (r >= 1 && j >= mask->dim(r - 1))
        return kNegInf;
    std::int64_t index = 0;
    for (std::size_t k = 0; k < r; ++k) {
        const std::int64_t c = coords[4 - r + k];
        index = index * mask->dim(k) + (mask->dim(k) == 1 ? 0 : c);
    }
    const double v = mask->valueAsDouble(static_cast<std::uint64_t>(index));
    if (mask->dtype() == DType::Bool)
        return v != 0 ? 0.0 : kNegInf;
    return v;
}
} // namespace

KernelStatus runOnnxAttention(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor* q = onnxInput(ctx, in, 0);
    const HostTensor* k = onnxInput(ctx, in, 1);
    const HostTensor* v = onnxInput(ctx, in, 2);
    const HostTensor* mask = onnxInput(ctx, in, 3);
    const HostTensor* pastK = onnxInput(ctx, in, 4);
    const HostTensor* pastV = onnxInput(ctx, in, 5);
    const HostTensor* nonpad = onnxInput(ctx, in, 6);
    if (!q || !k || !v)
        return fail("Attention needs Q, K and V");
    if ((pastK == nullptr) != (pastV == nullptr))
        return fail("Attention: past_key and past_value come together");
    if (mask && mask->rank() > 4)
        return fail("Attention: attn_mask " + describe(*mask) + " has more than 4 dims");
    const Attrs& a = ctx.attrs();
    auto qv = headView(q, a.intOr("q_num_heads", 0), "Q");
    auto kv = headView(k, a.intOr("kv_num_heads", 0), "K");
    auto vv = headView(v, a.intOr("kv_num_heads", 0), "V");
    if (!qv || !kv || !vv)
        return !qv ? qv.error() : !kv ? kv.error() : vv.error();
    HeadView pk, pv;
    if (pastK) {
        auto p1 = headView(pastK, 0, "past_key"), p2 = headView(pastV, 0, "past_value");
        if (!p1 || !p2)
            return !p1 ? p1.error() : p2.error();
        pk = *p1;
        pv = *p2;
    }
    const std::int64_t batch = q->dim(0), heads = qv->heads, qLen = qv->seq, dk = qv->size, dv = vv->size;
    const std::int64_t past = pastK ? pk.seq : 0, kvLen = past + kv->seq, kvHeads = kv->heads;
    if (kvHeads <= 0 || heads % kvHeads != 0 || kv->size != dk || vv->seq != kv->seq)
        return fail("Attention: Q " + describe(*q) + ", K " + describe(*k) + " and V " + describe(*v) + " do not fit");
    const double scale = a.getDouble("scale").value_or(1.0 / std::sqrt(double(dk)));
    const double softcap = a.doubleOr("softcap", 0.0);
    const bool causal = a.intOr("is_causal", 0) != 0;
    const std::int64_t left = a.intOr("left_window_size", -1), right = a.intOr("right_window_size", -1);
    auto keyAt = [&](const HeadView& now, const HeadView& before, std::int64_t b, std::int64_t h, std::int64_t j,
                     std::int64_t d) { return j < past ? before.at(b, h, j, d) : now.at(b, h, j - past, d); };

    const std::int64_t output = onnxOutput(ctx);
    if (output == 1 || output == 2) { // present_key, present_value: [batch, kv_heads, past + kv_seq, size]
        const HeadView& now = output == 1 ? *kv : *vv;
        const HeadView& before = output == 1 ? pk : pv;
        const std::int64_t size = now.size;
        HostTensor present({batch, kvHeads, kvLen, size}, DType::F64);
        double* p = present.values<double>().data();
        for (std::int64_t b = 0; b < batch; ++b)
            for (std::int64_t h = 0; h < kvHeads; ++h)
                for (std::int64_t j = 0; j < kvLen; ++j)
                    for (std::int64_t d = 0; d < size; ++d)
                        *p++ = keyAt(now, before, b, h, j, d);
        if (!convertTensor(ctx.pool, present, (output == 1 ? k : v)->dtype(), out))
            return fail("Attention: cannot write the present key or value");
        return ok();
    }
    if (output > 3)
        return fail("Attention has no output " + std::to_string(output));
    // qk_matmul_output (output 3): the scaled products (mode 0), with the mask (1), soft-capped (2), or softmax (3).
    const std::int64_t qkMode = a.intOr("qk_matmul_output_mode", 0);
    HostTensor qk(output == 3 ? Dims{batch, heads, qLen, kvLen} : Dims{}, DType::F64);
    auto qkAt = [&](std::int64_t b, std::int64_t h, std::int64_t i, std::int64_t j) -> double& {
        return qk.values<double>()[static_cast<std::size_t>(((b * heads + h) * qLen + i) * kvLen + j)];
    };
    HostTensor y(qv->packed ? Dims{batch, qLen, heads * dv} : Dims{batch, heads, qLen, dv}, DType::F64);
    double* yd = y.values<double>().data();
    std::vector<double> scores(static_cast<std::size_t>(kvLen));
    for (std::int64_t b = 0; b < batch; ++b) {
        // Causal and window frontiers align the last query with the last real key.
        const std::int64_t offset = nonpad && !pastK ? nonpad->valueAsInt(static_cast<std::uint64_t>(b)) - qLen : past;
        for (std::int64_t h = 0; h < heads; ++h) {
            const std::int64_t hk = h / (heads / kvHeads);
            for (std::int64_t i = 0; i < qLen; ++i) {
                double best = kNegInf, biasBest = kNegInf;
                for (std::int64_t j = 0; j < kvLen; ++j) {
                    double bias = maskBias(mask, b, h, i, j);
                    if (causal && j > i + offset)
                        bias = kNegInf;
                    if ((left >= 0 && i + offset - j > left) || (right >= 0 && j - (i + offset) > right))
                        bias = kNegInf;
                    if (nonpad && j >= nonpad->valueAsInt(static_cast<std::uint64_t>(b)))
                        bias = kNegInf;
                    double s = 0;
                    for (std::int64_t d = 0; d < dk; ++d)
                        s += qv->at(b, h, i, d) * keyAt(*kv, pk, b, hk, j, d);
                    s *= scale;
                    if (output == 3 && qkMode < 3) {
                        const double capped = softcap > 0 ? softcap * std::tanh((s + bias) / softcap) : s + bias;
                        qkAt(b, h, i, j) = qkMode == 0 ? s : qkMode == 1 ? s + bias : capped;
                    }
                    if (softcap > 0)
                        s = softcap * std::tanh(s / softcap);
                    scores[static_cast<std::size_t>(j)] = s + bias;
                    best = std::max(best, s + bias);
                    biasBest = std::max(biasBest, bias);
                }
                double sum = 0;
                for (double& s : scores) {
                    s = std::isinf(best) ? 0.0 : std::exp(s - best);
                    sum += s;
                }
                const bool masked = biasBest == kNegInf; // every key masked: Y is 0 for this row
                for (std::int64_t j = 0; j < kvLen && output == 3 && qkMode == 3; ++j)
                    qkAt(b, h, i, j) = masked || sum <= 0 ? 0.0 : scores[static_cast<std::size_t>(j)] / sum;
                for (std::int64_t d = 0; d < dv; ++d) {
                    double acc = 0;
                    for (std::int64_t j = 0; j < kvLen && !masked && sum > 0; ++j)
                        acc += scores[static_cast<std::size_t>(j)] / sum * keyAt(*vv, pv, b, hk, j, d);
                    const std::int64_t at = qv->packed ? ((b * qLen + i) * heads + h) * dv + d
                                                       : ((b * heads + h) * qLen + i) * dv + d;
                    yd[at] = acc;
                }
            }
        }
    }
    if (!convertTensor(ctx.pool, output == 3 ? qk : y, q->dtype(), out))
        return fail("Attention: cannot write " + describe(*q));
    return ok();
}

} // namespace costscope::cpu
