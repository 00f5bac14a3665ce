// SPDX-License-Identifier: MIT
// Fft (fft.comp: pack, log2 n Stockham radix-2 stages or a direct DFT, unpack), WelchPeaks (welch.comp) and
// Attention (attention.comp). Complex layouts as the CPU backend: F32 [..., 2n] planar, or C64 [..., n]
// interleaved (C64 is not held on Vulkan, so only the planar form reaches these kernels).
#include "attention_layout.h"
#include "mel_filterbank.h"
#include "vulkan/vk_lowering.h"

#include <algorithm>
#include <cmath>

namespace costscope::vk {

LowerStatus lowerFft(Lowering& l)
{
    const Value& x = *l.in[0];
    if (x.dtype != DType::F32 || x.dims.empty() || x.dims.back() % 2)
        return lowerError("Fft needs F32 [..., 2n] (planar complex) on Vulkan, got " + dimsString(x.dims));
    const bool inverse = l.attrs().getBool("inverse").value_or(false);
    const std::int64_t n = x.dims.back() / 2;
    const std::int64_t rows = n ? static_cast<std::int64_t>(elementCount(x.dims)) / (2 * n) : 0;
    const Result<double> scaleOr = fftScale(l.attrs(), inverse, n);
    if (!scaleOr)
        return scaleOr.error();
    const double scale = *scaleOr;
    l.out = {x.dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    if (!rows || !n)
        return true;
    const std::uint64_t bytes = static_cast<std::uint64_t>(rows * n) * 8;
    std::size_t cur = l.newSlot(bytes), other = l.newSlot(bytes);
    const auto points = static_cast<std::uint64_t>(rows * n);
    auto params = [&](std::uint64_t threads, int mode, std::int64_t span) {
        return std::vector<std::int32_t>{i32(threads), mode, i32(n), i32(span), 1, inverse, floatBits(scale)};
    };
    l.dispatches.push_back({"fft", params(points, 0, 0), {x.slot, cur}, linearGroups(points)});
    if ((n & (n - 1)) == 0) {
        for (std::int64_t span = 1; span < n; span *= 2) {
            l.dispatches.push_back({"fft", params(points / 2, 1, span), {cur, other}, linearGroups(points / 2)});
            std::swap(cur, other);
        }
    } else {
        l.dispatches.push_back({"fft", params(points, 3, 0), {cur, other}, linearGroups(points)});
        std::swap(cur, other);
    }
    l.dispatches.push_back({"fft", params(points, 2, 0), {cur, dst}, linearGroups(points)});
    return true;
}

LowerStatus lowerWelchPeaks(Lowering& l)
{
    const Value& x = *l.in[0];
    if (x.dtype != DType::F32 || x.dims.empty() || x.dims.back() % 2)
        return lowerError("WelchPeaks needs a planar complex spectrum F32 [..., 2n] on Vulkan, got " + dimsString(x.dims));
    const std::int64_t k = l.attrs().intOr("k", 16), segs = l.attrs().intOr("n_segments", 1);
    const std::int64_t n = x.dims.back() / 2;
    const std::int64_t rows = n ? static_cast<std::int64_t>(elementCount(x.dims)) / (2 * n) : 0;
    if (k < 1 || segs < 1 || rows % segs)
        return lowerError("WelchPeaks: " + std::to_string(rows) + " spectra do not split into segments of "
                          + std::to_string(segs) + " (k " + std::to_string(k) + ")");
    const std::int64_t batch = rows / segs, bins = std::min(n / 2 + 1, n);
    l.out = {{batch, 2 * k}, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::size_t power = l.newSlot(static_cast<std::uint64_t>(batch * bins) * 4);
    if (batch)
        l.dispatches.push_back({"welch", {i32(batch), i32(segs), i32(n), i32(bins), i32(k), 1}, {x.slot, power, dst},
                                linearGroups(static_cast<std::uint64_t>(batch))});
    return true;
}

LowerStatus lowerAttention(Lowering& l)
{
    const Value& q = *l.in[0];
    const Value& k = *l.in[1];
    const Value& v = *l.in[2];
    for (const Value* t : {&q, &k, &v})
        if (t->dtype != DType::F32)
            return lowerError("Attention: " + dimsString(t->dims) + " must be F32");
    auto layout =
        attentionLayout(q.dims, k.dims, v.dims, l.attrs().intOr("num_heads", 1), l.attrs().intOr("head_dim", 0));
    if (!layout)
        return layout.error();
    auto mask = attentionMask(l.attrs());
    if (!mask)
        return lowerError("Attention: " + mask.error().message);
    // attention.comp's mask codes: 0 none, 1 causal, 2 sliding window, 3 Bool input, 4 additive input.
    int maskKind = mask->kind;
    const std::int64_t sq = layout->sq, sk = layout->sk, batch = layout->batch, heads = layout->heads;
    const std::int64_t hd = layout->headDim;
    Dims maskStrides(4, 0);
    std::size_t maskSlot = kNoSlot;
    if (mask->kind == AttentionMask::Input) {
        if (l.in.size() < 4)
            return lowerError("Attention: mask_kind needs a 4th (mask) input");
        const Value& m = *l.in[3];
        const Dims full{batch, heads, sq, sk};
        auto b = broadcastDims(full, m.dims);
        if (!b || *b != full)
            return lowerError("Attention: mask " + dimsString(m.dims) + " does not broadcast to " + dimsString(full));
        if (m.dtype == DType::F32)
            maskKind = 4;
        else if (m.dtype != DType::Bool)
            return lowerError("Attention: the mask must be Bool or F32 on Vulkan");
        maskStrides = broadcastStrides(m.dims, full);
        maskSlot = m.slot;
    }
    const double scale = l.attrs().doubleOr("score_scale", 1.0 / std::sqrt(double(std::max<std::int64_t>(hd, 1))));
    const double cap = l.attrs().doubleOr("attn_logit_softcap", 0.0);
    l.out = {q.dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t rows = static_cast<std::uint64_t>(batch * heads * sq);
    if (rows && hd)
        l.dispatches.push_back({"attention",
                                {i32(rows),
                                 i32(heads),
                                 i32(hd),
                                 i32(sq),
                                 i32(sk),
                                 floatBits(scale),
                                 floatBits(cap),
                                 maskKind,
                                 i32(mask->window),
                                 i32(maskStrides[0]),
                                 i32(maskStrides[1]),
                                 i32(maskStrides[2]),
                                 i32(maskStrides[3]),
                                 i32(layout->q.batch),
                                 i32(layout->q.head),
                                 i32(layout->q.row),
                                 i32(layout->kv.batch),
                                 i32(layout->kv.head),
                                 i32(layout->kv.row),
                                 i32(layout->group())},
                                {q.slot, k.slot, v.slot, maskSlot, dst},
                                linearGroups(rows)});
    return true;
}

LowerStatus lowerLogMel(Lowering& l)
{
    const Value& x = *l.in[0];
    if (x.dtype != DType::F32 || x.dims.empty())
        return lowerError("LogMel needs an F32 power spectrum [..., bins], got " + dimsString(x.dims));
    const std::int64_t bins = x.dims.back();
    std::int64_t mels = 0;
    std::size_t bank = kNoSlot;
    if (l.in.size() > 1) {
        const Value& fb = *l.in[1];
        if (fb.dtype != DType::F32 || fb.dims.size() != 2 || fb.dims[1] != bins)
            return lowerError("LogMel: filterbank " + dimsString(fb.dims) + " must be F32 [mels, " + std::to_string(bins) + "]");
        mels = fb.dims[0];
        bank = fb.slot;
    } else {
        if (l.node.shape.dims.empty())
            return lowerError("LogMel: without a filterbank input the node's shape must give the mel count");
        auto m = l.node.shape.dims.back().resolve(l.bindings);
        if (!m || *m < 1)
            return lowerError("LogMel: the node's last dim (the mel count) is not bound");
        mels = *m;
        const std::vector<float> htk = melFilterbank(mels, bins);
        bank = l.newConstant(HostTensor::fromBytes({mels, bins}, DType::F32, htk.data(), htk.size() * sizeof(float)));
    }
    Dims dims = x.dims;
    dims.back() = mels;
    l.out = {dims, DType::F32, kNoSlot};
    const std::size_t dst = l.outputSlot();
    const std::uint64_t n = elementCount(dims);
    if (n)
        l.dispatches.push_back({"logmel", {i32(n), i32(mels), i32(bins)}, {x.slot, bank, dst}, linearGroups(n)});
    return true;
}

} // namespace costscope::vk
