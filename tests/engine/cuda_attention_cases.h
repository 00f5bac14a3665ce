// SPDX-License-Identifier: MIT
#pragma once
// RLX Attention per head ([batch, heads, seq, head_dim]) for the CUDA backend's test and bench: causal, grouped KV
// heads, an additive mask input, a 64-wide head (GPT-2's) and shapes over several of the kernels' tiles, against
// attention_reference.h.

#include "attention_reference.h"
#include "cuda_cases.h"

namespace costscope::cudacases {

inline std::vector<Case> perHeadAttentionCases()
{
    struct Spec {
        const char* name;
        test::PerHeadShape shape;
        const char* mask;
    };
    const Spec specs[] = {
        {"Attention per head [1,4,16,8]", {1, 4, 4, 16, 16, 8}, "None"},
        {"Attention per head causal, Sq 3 < Sk 7", {2, 2, 2, 3, 7, 40}, "Causal"},
        {"Attention per head GQA 8/2 causal, d 64", {1, 8, 2, 33, 33, 64}, "Causal"},
        {"Attention per head MQA with additive mask", {2, 4, 1, 5, 9, 16}, "Bias"},
        // Several 32- and 64-row query blocks and 64-key tiles, the last of each partial (the flash kernel).
        {"Attention per head causal, d 64, Sq 130", {2, 3, 3, 130, 130, 64}, "Causal"},
        {"Attention per head with additive mask, d 48, Sq 70 < Sk 100", {1, 2, 2, 70, 100, 48}, "Bias"},
    };
    std::vector<Case> out;
    int seed = 40;
    for (const Spec& s : specs) {
        const test::PerHeadShape& p = s.shape;
        Builder b;
        const auto q = values(p.qSize(), seed++), k = values(p.kvSize(), seed++), v = values(p.kvSize(), seed++);
        std::vector<NodeId> in{b.input(p.qDims()), b.input(p.kvDims()), b.input(p.kvDims())};
        std::vector<HostTensor> tensors{tensor(p.qDims(), q), tensor(p.kvDims(), k), tensor(p.kvDims(), v)};
        std::vector<float> full;
        if (std::string(s.mask) == "Bias") { // [B, 1, Sq, Sk] broadcast over heads
            const std::vector<std::int64_t> dims{p.batch, 1, p.sq, p.sk};
            auto small = values(std::size_t(p.batch) * p.sq * p.sk, seed++);
            for (std::size_t i = 0; i < small.size(); i += 4)
                small[i] = -INFINITY;
            for (int bi = 0; bi < p.batch; ++bi)
                for (int h = 0; h < p.heads; ++h)
                    full.insert(full.end(), small.begin() + std::ptrdiff_t(bi) * p.sq * p.sk,
                                small.begin() + std::ptrdiff_t(bi + 1) * p.sq * p.sk);
            in.push_back(b.input(dims));
            tensors.push_back(tensor(dims, small));
        }
        auto at = b.op(OpKind::Attention,
                       attrs({{"num_heads", std::int64_t(p.heads)},
                              {"head_dim", std::int64_t(p.headDim)},
                              {"mask_kind", std::string(s.mask)}}),
                       in, p.qDims());
        out.push_back({s.name, b.finish(at), tensors,
                       test::referenceAttention(p, q, k, v, std::string(s.mask) == "Causal", full)});
    }
    return out;
}

} // namespace costscope::cudacases
