// SPDX-License-Identifier: MIT
#pragma once
// Attention on the tensor cores for F16/BF16 storage (attention_tensor_core.cu), and the host-side choice of
// whether a problem goes there: a pure function of the head dim, the storage type and the device, so that a
// machine without a GPU can test it.
#include "cuda/cuda_kernels.h"

#include <cstddef>
#include <cstdint>

namespace costscope::cuda {

// Query rows a block of the tensor-core kernel owns (16 per warp, 4 warps), and keys per staged tile.
inline constexpr int kTensorCoreRows = 64;
inline constexpr int kTensorCoreKeys = 64;

// Dynamic shared memory of one block at tile width `width` (the head dim padded to 32, 64 or 128): q, k and v
// tiles in 16 bits, the scores in F32, the probabilities in 16 bits and the output accumulator in F32, rows
// padded so that the tensor-core loads do not collide in banks.
constexpr std::size_t tensorCoreAttentionSharedBytes(int width)
{
    const auto rows = static_cast<std::size_t>(kTensorCoreRows);
    const auto w = static_cast<std::size_t>(width);
    return 3 * rows * (w + 8) * 2                                       // q, k, v
           + rows * (static_cast<std::size_t>(kTensorCoreKeys) + 4) * 4 // scores
           + rows * (static_cast<std::size_t>(kTensorCoreKeys) + 8) * 2 // probabilities
           + rows * (w + 4) * 4;                                        // output
}

// The tile width the tensor-core kernel runs a problem at, or 0 where the other kernels run it: F16/BF16
// storage, a head dim that is a multiple of 16 up to 128 (the 16x16x16 fragments' k), a device of compute
// capability 8.0 or newer (bf16 fragments) and a block's shared memory within what the device lets a block opt
// in to (`sharedOptInBytes`; an sm_86/89 card's 99 KB does not hold the 128-wide tile).
constexpr int tensorCoreAttentionWidth(std::int64_t headDim, ElemType storage, int computeMajor,
                                       std::size_t sharedOptInBytes)
{
    if (storage != ElemType::F16 && storage != ElemType::BF16)
        return 0;
    if (headDim < 16 || headDim > 128 || headDim % 16 != 0 || computeMajor < 8)
        return 0;
    const int width = headDim <= 32 ? 32 : headDim <= 64 ? 64 : 128;
    return tensorCoreAttentionSharedBytes(width) <= sharedOptInBytes ? width : 0;
}

// Launches the tensor-core kernel on the current device; false (nothing launched) where
// tensorCoreAttentionWidth says it does not apply, and the caller uses the flash or tiled kernel.
bool launchAttentionTensorCore(const AttentionArgs& a, cudaStream_t s);

} // namespace costscope::cuda
