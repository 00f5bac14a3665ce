// SPDX-License-Identifier: MIT
#pragma once
// Whether cuDNN's fused attention (SDPA through cudnn_frontend, cudnn_sdpa.h) may run an attention problem, and with
// which tensors: a pure function of AttentionArgs, so that a machine without a GPU or cuDNN can test the mapping.
// cuDNN itself has the last word (its support check at plan time); this only rules out what it cannot express the
// way our kernels compute it (engine/cuda/attention_score.cuh).
#include "cuda/cuda_kernels.h"
#include "ir/diagnostic.h"

#include <array>
#include <cstdint>
#include <string>

namespace costscope::cuda {

// One SDPA problem as cuDNN's graph takes it: q, k, v and the output as [batch, heads, seq, head_dim] with element
// strides (the last 1; q, k and v may be strided views of one packed tensor), grouped KV heads as k/v's head count, and
// an optional additive bias of q's type.
struct SdpaConfig {
    using Dims4 = std::array<std::int64_t, 4>;
    bool bf16 = false; // else fp16
    std::int64_t batch = 0, heads = 0, kvHeads = 0, sq = 0, sk = 0, headDim = 0;
    // The output's strides are q's unless q is read in place from a wider tensor (qkv_views.h): then the output's own.
    Dims4 qStrides{}, kvStrides{}, oStrides{};
    // Causal: query row i sees keys up to i + sk - sq (the diagonal aligned at the bottom right, as
    // attention_score.cuh's attentionKeyRange); window > 0 keeps the last `window` of those.
    bool causal = false;
    std::int64_t window = 0;
    bool bias = false;
    Dims4 biasDims{}, biasStrides{}; // extent 1 along broadcast dims
    float scale = 1;

    // Every field, as text: plans share one cuDNN graph per key.
    std::string key() const;
};

// The problem as cuDNN's SDPA, or an error whose message says in a few words why it stays with our kernels.
Result<SdpaConfig> sdpaConfigFor(const AttentionArgs& a);

// Off where the environment sets COSTSCOPE_CUDNN=off (or 0): A/B timing against our kernels.
bool cudnnRequested();

} // namespace costscope::cuda
