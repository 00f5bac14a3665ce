// SPDX-License-Identifier: MIT
#pragma once
// Attention over key/value tiles shared by a block of query rows (attention_tiled.cu).
#include "cuda/cuda_kernels.h"

namespace costscope::cuda {

// Launches the tiled kernel; false (nothing launched) where it does not apply (head dims over 128), and the
// warp-per-row kernel of attention.cu is used instead.
bool launchAttentionTiled(const AttentionArgs& a, cudaStream_t s);

} // namespace costscope::cuda
