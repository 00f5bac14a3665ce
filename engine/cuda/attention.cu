// SPDX-License-Identifier: MIT
// Fused attention: one warp per (batch, head, query) row streams the keys once with an online softmax, so the
// [Sq, Sk] score matrix never reaches memory. Semantics as the CPU backend (engine/cpu/attention.cpp): scores
// scaled, optionally soft-capped, masked, softmax over keys, times v; heads packed in the last dim or per head, KV
// heads possibly grouped (the strides of AttentionArgs).
#include "cuda/cuda_kernels.h"

namespace costscope::cuda {

namespace {
constexpr int kMaxPerLane = 8; // head dims up to 256
constexpr int kWarpsPerBlock = 4;

template <int PerLane>
__global__ void attentionKernel(AttentionArgs a)
{
    const std::int64_t row = blockIdx.x * std::int64_t(kWarpsPerBlock) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= a.batch * a.heads * a.sq)
        return;
    const std::int64_t i = row % a.sq, h = (row / a.sq) % a.heads, b = row / (a.sq * a.heads);
    const std::int64_t qRow = b * a.qStrides[0] + h * a.qStrides[1] + i * a.qStrides[2];
    const std::int64_t kvBase = b * a.kvStrides[0] + (h / a.kvGroup) * a.kvStrides[1];
    const float* q = a.q + qRow;
    float qv[PerLane], acc[PerLane];
    for (int t = 0; t < PerLane; ++t) {
        const std::int64_t d = lane + 32 * t;
        qv[t] = d < a.headDim ? q[d] : 0.0f;
        acc[t] = 0.0f;
    }
    const std::int64_t last = i + a.sk - a.sq; // the last key a causal query sees
    float m = -INFINITY, l = 0.0f;
    for (std::int64_t j = 0; j < a.sk; ++j) {
        if ((a.mask == MaskKind::Causal || a.mask == MaskKind::Window) && j > last)
            break;
        if (a.mask == MaskKind::Window && j <= last - a.window)
            continue;
        const float* k = a.k + kvBase + j * a.kvStrides[2];
        float dot = 0.0f;
        for (int t = 0; t < PerLane; ++t) {
            const std::int64_t d = lane + 32 * t;
            dot += d < a.headDim ? qv[t] * k[d] : 0.0f;
        }
        for (int o = 16; o > 0; o >>= 1)
            dot += __shfl_xor_sync(0xffffffffu, dot, o);
        float s = dot * a.scale;
        if (a.softcap > 0.0f)
            s = a.softcap * tanhf(s / a.softcap);
        if (a.mask == MaskKind::Input) {
            const std::int64_t off = b * a.maskStrides[0] + h * a.maskStrides[1] + i * a.maskStrides[2]
                + j * a.maskStrides[3];
            if (a.maskIsBool)
                s = static_cast<const unsigned char*>(a.maskData)[off] ? s : -INFINITY;
            else
                s += static_cast<const float*>(a.maskData)[off];
        }
        if (s == -INFINITY)
            continue;
        const float mNew = fmaxf(m, s);
        const float corr = expf(m - mNew), p = expf(s - mNew);
        l = l * corr + p;
        const float* v = a.v + kvBase + j * a.kvStrides[2];
        for (int t = 0; t < PerLane; ++t) {
            const std::int64_t d = lane + 32 * t;
            acc[t] = acc[t] * corr + (d < a.headDim ? p * v[d] : 0.0f);
        }
        m = mNew;
    }
    float* out = a.out + qRow;
    for (int t = 0; t < PerLane; ++t) {
        const std::int64_t d = lane + 32 * t;
        if (d < a.headDim)
            out[d] = l > 0.0f ? acc[t] / l : 0.0f;
    }
}

template <int PerLane>
void launchFor(const AttentionArgs& a, cudaStream_t s)
{
    const std::int64_t rows = a.batch * a.heads * a.sq;
    const auto blocks = static_cast<unsigned>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock);
    attentionKernel<PerLane><<<blocks, kWarpsPerBlock * 32, 0, s>>>(a);
}
} // namespace

bool attentionSupportsHeadDim(std::int64_t headDim)
{
    return headDim >= 1 && headDim <= 32 * kMaxPerLane;
}

void launchAttention(const AttentionArgs& a, cudaStream_t s)
{
    if (a.batch * a.heads * a.sq == 0)
        return;
    // Registers per lane sized to the head dim: 64-wide heads (GPT-2, BERT) use 2.
    if (a.headDim <= 32)
        launchFor<1>(a, s);
    else if (a.headDim <= 64)
        launchFor<2>(a, s);
    else if (a.headDim <= 128)
        launchFor<4>(a, s);
    else
        launchFor<8>(a, s);
}

} // namespace costscope::cuda
