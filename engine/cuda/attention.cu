// SPDX-License-Identifier: MIT
// Fused attention: one warp per (batch, head, query) row streams the keys once with an online softmax, so the
// [Sq, Sk] score matrix never reaches memory. The keys come 32 at a time, one per lane: each lane takes its key's
// dot product with the query (held in shared memory), the warp takes one max and one sum per chunk, and the lanes
// then accumulate the chunk's values over the head dim. Walking one key per step with a warp-wide reduction each
// (the first version) was latency-bound at ~0.6-1 us per key on an H100. F16/BF16 go to the tensor-core kernel
// (attention_tensor_core.cu) where it applies; other head dims up to 128 go to the flash or the tiled kernel
// (attention_flash.cu, attention_tiled.cu), which share each key/value tile among query rows. Semantics as the CPU
// backend (engine/cpu/attention.cpp): scores scaled, optionally soft-capped, masked, softmax over keys, times v;
// heads packed in the last dim or per head, KV heads possibly grouped (the strides of AttentionArgs).
#include "cuda/attention_flash.h"
#include "cuda/attention_score.cuh"
#include "cuda/attention_tensor_core.h"
#include "cuda/attention_tiled.h"
#include "cuda/cuda_kernels.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace costscope::cuda {

namespace {
constexpr int kMaxPerLane = 8; // head dims up to 256
constexpr int kWarpsPerBlock = 4;

template <int PerLane>
__global__ void attentionKernel(AttentionArgs a)
{
    __shared__ float qShared[kWarpsPerBlock][32 * PerLane];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const std::int64_t row = blockIdx.x * std::int64_t(kWarpsPerBlock) + warp;
    if (row >= a.batch * a.heads * a.sq) // uniform over the warp: no lane of it waits on the others below
        return;
    const std::int64_t i = row % a.sq, h = (row / a.sq) % a.heads, b = row / (a.sq * a.heads);
    const std::int64_t qRow = b * a.qStrides[0] + h * a.qStrides[1] + i * a.qStrides[2];
    const std::int64_t kvBase = b * a.kvStrides[0] + (h / a.kvGroup) * a.kvStrides[1];
    float* q = qShared[warp];
    for (int t = 0; t < PerLane; ++t) {
        const std::int64_t d = lane + 32 * t;
        q[d] = d < a.headDim ? a.q[qRow + d] : 0.0f;
    }
    __syncwarp();
    std::int64_t begin = 0, end = 0; // the keys this query sees
    attentionKeyRange(a, i, begin, end);
    // Rows of 4 floats can be read as float4 where the layout keeps them 16-byte aligned.
    const bool vec4 = a.headDim % 4 == 0 && a.kvStrides[2] % 4 == 0
        && (reinterpret_cast<std::uintptr_t>(a.k + kvBase) % 16) == 0;
    float acc[PerLane];
    for (int t = 0; t < PerLane; ++t)
        acc[t] = 0.0f;
    float m = -INFINITY, l = 0.0f;
    for (std::int64_t j0 = begin; j0 < end; j0 += 32) {
        const std::int64_t j = j0 + lane;
        float s = -INFINITY;
        if (j < end) {
            const float* k = a.k + kvBase + j * a.kvStrides[2];
            float dot = 0.0f;
            if (vec4) {
                const float4* k4 = reinterpret_cast<const float4*>(k);
                for (std::int64_t d = 0; d < a.headDim / 4; ++d) {
                    const float4 kv = k4[d];
                    dot += q[4 * d] * kv.x + q[4 * d + 1] * kv.y + q[4 * d + 2] * kv.z + q[4 * d + 3] * kv.w;
                }
            } else {
                for (std::int64_t d = 0; d < a.headDim; ++d)
                    dot += q[d] * k[d];
            }
            s = attentionScore(a, b, h, i, j, dot);
        }
        float chunkMax = s;
        for (int o = 16; o > 0; o >>= 1)
            chunkMax = fmaxf(chunkMax, __shfl_xor_sync(0xffffffffu, chunkMax, o));
        const float mNew = fmaxf(m, chunkMax);
        if (mNew == -INFINITY) // every key so far masked out: nothing to add (the same value in every lane)
            continue;
        const float corr = expf(m - mNew);
        const float p = s == -INFINITY ? 0.0f : expf(s - mNew);
        float pSum = p;
        for (int o = 16; o > 0; o >>= 1)
            pSum += __shfl_xor_sync(0xffffffffu, pSum, o);
        l = l * corr + pSum;
        for (int t = 0; t < PerLane; ++t)
            acc[t] *= corr;
        const int n = end - j0 < 32 ? static_cast<int>(end - j0) : 32;
        for (int jj = 0; jj < n; ++jj) {
            const float pj = __shfl_sync(0xffffffffu, p, jj);
            if (pj == 0.0f) // the same in every lane: the whole warp skips a masked key
                continue;
            const float* v = a.v + kvBase + (j0 + jj) * a.kvStrides[2];
            for (int t = 0; t < PerLane; ++t) {
                const std::int64_t d = lane + 32 * t;
                if (d < a.headDim)
                    acc[t] += pj * v[d];
            }
        }
        m = mNew;
    }
    float* out = a.out + b * a.oStrides[0] + h * a.oStrides[1] + i * a.oStrides[2];
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

bool attentionSupportsHeadDim(std::int64_t headDim, ElemType storage)
{
    return headDim >= 1 && headDim <= (storage == ElemType::F32 ? 32 * kMaxPerLane : 128);
}

void launchAttention(const AttentionArgs& a, cudaStream_t s)
{
    if (a.batch * a.heads * a.sq == 0)
        return;
    // COSTSCOPE_CUDA_ATTENTION picks a kernel, to time one against another: rows (warp per row), tiled (8 rows a
    // block), flash32 or flash64 (the register-tiled kernel with 32 or 64 rows a block); unset: for F16/BF16 the
    // tensor-core kernel (attention_tensor_core.cu) where it applies, then flash, else tiled.
    enum class Kernel { Auto, Rows, Tiled, Flash32, Flash64 };
    static const Kernel chosen = [] {
        const char* v = std::getenv("COSTSCOPE_CUDA_ATTENTION");
        if (!v)
            return Kernel::Auto;
        for (auto [name, k] : {std::pair{"rows", Kernel::Rows}, std::pair{"tiled", Kernel::Tiled},
                               std::pair{"flash32", Kernel::Flash32}, std::pair{"flash64", Kernel::Flash64}})
            if (std::strcmp(v, name) == 0)
                return k;
        return Kernel::Auto;
    }();
    const FlashRows rows = chosen == Kernel::Flash32 ? FlashRows::Rows32
        : chosen == Kernel::Flash64                  ? FlashRows::Rows64
                                                     : FlashRows::Auto;
    // 16-bit storage: the tensor-core, flash and tiled kernels only (the lowering keeps head dims within the tiled
    // kernel's).
    const bool sixteenBit = a.storage != ElemType::F32;
    if (sixteenBit && chosen == Kernel::Auto && launchAttentionTensorCore(a, s))
        return;
    if ((sixteenBit || chosen != Kernel::Rows) && chosen != Kernel::Tiled && launchAttentionFlash(a, rows, s))
        return;
    if ((sixteenBit || chosen != Kernel::Rows) && launchAttentionTiled(a, s))
        return;
    if (sixteenBit)
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
