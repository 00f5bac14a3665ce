// SPDX-License-Identifier: MIT
#pragma once
// What every attention kernel (attention.cu, attention_tiled.cu, attention_flash.cu) does to one query-key pair:
// the keys a query row sees, and the score from the dot product (scaled, soft-capped, masked by an input mask).
// One copy so that the kernels cannot drift apart in semantics (the CPU backend's engine/cpu/attention.cpp).
#include "cuda/cuda_kernels.h"
#include "cuda/elementwise_ops.cuh"

#include <atomic>
#include <cstdint>

namespace costscope::cuda {

// Lets `kernel` take `bytes` of dynamic shared memory, over the default 48 KB. The opt-in is per device, so it is set
// on each one the kernel runs on, remembered in the caller's `optedIn` (one array per kernel). Atomic: `run --device
// all` launches from one thread per device, and two plans may share a device.
inline constexpr int kMaxOptInDevices = 64;
template <typename Kernel>
void optInSharedMemory(Kernel* kernel, int bytes, std::atomic<bool> (&optedIn)[kMaxOptInDevices])
{
    int device = 0;
    cudaGetDevice(&device);
    if (device < 0 || device >= kMaxOptInDevices || !optedIn[device]) {
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
        if (device >= 0 && device < kMaxOptInDevices)
            optedIn[device] = true;
    }
}

// Element i of q, k or v (AttentionArgs::storage) as a float, and a result stored so.
__device__ inline float attentionLoad(const float* p, ElemType storage, std::int64_t i)
{
    if (storage == ElemType::BF16)
        return bf16BitsToFloat(reinterpret_cast<const unsigned short*>(p)[i]);
    if (storage == ElemType::F16)
        return halfBitsToFloat(reinterpret_cast<const unsigned short*>(p)[i]);
    return p[i];
}

__device__ inline void attentionStore(float* p, ElemType storage, std::int64_t i, float v)
{
    if (storage == ElemType::BF16)
        reinterpret_cast<unsigned short*>(p)[i] = floatToBf16BitsRn(v);
    else if (storage == ElemType::F16)
        reinterpret_cast<unsigned short*>(p)[i] = floatToHalfBitsRn(v);
    else
        p[i] = v;
}

// Keys query row `row` sees: [begin, end): all, up to its position (causal), or the last `window` of those. The
// query rows end at the last key (row + sk - sq is the key at the row's position).
__device__ inline void attentionKeyRange(const AttentionArgs& a, std::int64_t row, std::int64_t& begin,
                                         std::int64_t& end)
{
    const std::int64_t last = row + a.sk - a.sq;
    begin = 0;
    end = a.sk;
    if (a.mask == MaskKind::Causal || a.mask == MaskKind::Window)
        end = last + 1 < a.sk ? last + 1 : a.sk;
    if (a.mask == MaskKind::Window && last - a.window + 1 > 0)
        begin = last - a.window + 1;
}

// The score of query row i of (batch b, head h) against key j, from their dot product; -INFINITY where an input
// mask hides the key.
__device__ inline float attentionScore(const AttentionArgs& a, std::int64_t b, std::int64_t h, std::int64_t i,
                                       std::int64_t j, float dot)
{
    float s = dot * a.scale;
    if (a.softcap > 0.0f)
        s = a.softcap * tanhf(s / a.softcap);
    if (a.mask == MaskKind::Input) {
        const std::int64_t off =
            b * a.maskStrides[0] + h * a.maskStrides[1] + i * a.maskStrides[2] + j * a.maskStrides[3];
        if (a.maskIsBool)
            s = static_cast<const unsigned char*>(a.maskData)[off] ? s : -INFINITY;
        else
            s += attentionLoad(static_cast<const float*>(a.maskData), a.maskStorage, off);
    }
    return s;
}

} // namespace costscope::cuda
