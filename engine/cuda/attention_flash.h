// SPDX-License-Identifier: MIT
#pragma once
// Attention with both sides of each product tiled in registers (attention_flash.cu), for head dims up to 64.
#include "cuda/cuda_kernels.h"

namespace costscope::cuda {

// Query rows per block of the flash kernel: 64 (256 threads) or 32 (128 threads); Auto: 64 where the problem
// fills the GPU, else none (false).
enum class FlashRows { Auto, Rows32, Rows64 };

// Launches the flash kernel; false (nothing launched) where it does not apply (head dims over 64) or, with Auto,
// does not pay, and the caller uses the tiled kernel (attention_tiled.cu) instead.
bool launchAttentionFlash(const AttentionArgs& a, FlashRows rows, cudaStream_t s);

} // namespace costscope::cuda
