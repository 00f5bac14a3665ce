// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <cstdint>
#include <vector>

namespace costscope {

// Where RLX Attention's q, k and v keep each head, so that every backend walks them the same way. Two layouts:
//   packed:   q [..., Sq, H*D],   k and v [..., Sk, Hkv*D]   (heads side by side in the last dim)
//   per head: q [..., H, Sq, D],  k and v [..., Hkv, Sk, D]  (RLX's per-head bundles, PyTorch's SDPA layout)
// With grouped KV heads (Hkv < H, H a multiple of Hkv) query head h reads KV head h / (H / Hkv). The output has
// q's dims and layout. Offsets are in elements: head h's row i of batch b starts at
// b * batch + h * head + i * row.
struct AttentionLayout {
    struct Strides {
        std::int64_t batch = 0, head = 0, row = 0;
        std::int64_t at(std::int64_t b, std::int64_t h, std::int64_t i) const { return b * batch + h * head + i * row; }
    };
    bool perHead = false;
    std::int64_t batch = 0, heads = 0, kvHeads = 0, headDim = 0, sq = 0, sk = 0;
    Strides q, kv; // kv's head is a KV head (use kvHead(h))

    std::int64_t group() const { return kvHeads > 0 ? heads / kvHeads : 1; }
    std::int64_t kvHead(std::int64_t h) const { return h / group(); }
};

// The layout of q, k, v dims for num_heads and head_dim; an error says which tensor fits neither layout.
Result<AttentionLayout> attentionLayout(const std::vector<std::int64_t>& q, const std::vector<std::int64_t>& k,
                                        const std::vector<std::int64_t>& v, std::int64_t heads, std::int64_t headDim);

} // namespace costscope
