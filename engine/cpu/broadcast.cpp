// SPDX-License-Identifier: MIT
#include "cpu/broadcast.h"

namespace costscope::cpu {

std::optional<Broadcast> makeBroadcast(const std::vector<const Dims*>& inputs)
{
    Broadcast b;
    b.operands = inputs.size();
    if (b.operands > Broadcast::kMaxOperands)
        return std::nullopt;
    for (const Dims* d : inputs) {
        auto next = broadcastDims(b.out, *d);
        if (!next)
            return std::nullopt;
        b.out = *next;
    }
    b.flat = true;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Dims& d = *inputs[i];
        const std::size_t lead = b.out.size() - d.size();
        Dims st(b.out.size(), 0);
        std::int64_t s = 1;
        for (std::size_t k = d.size(); k-- > 0;) {
            st[k + lead] = d[k] == 1 && b.out[k + lead] != 1 ? 0 : s;
            s *= d[k];
        }
        const bool same = d == b.out;
        const bool scalar = product(d) == 1;
        b.flat = b.flat && (same || scalar);
        b.flatStep[i] = scalar && !same ? 0 : 1;
        b.strides[i] = st;
    }
    b.shape = b.out;
    if (b.out.empty()) {
        b.out = {1};
        for (std::size_t i = 0; i < b.operands; ++i)
            b.strides[i] = {0};
        b.flat = true;
    }
    return b;
}

Broadcast coalesced(const Broadcast& b)
{
    if (b.flat || b.out.size() < 2)
        return b;
    Broadcast c = b;
    const std::size_t rank = b.out.size();
    Dims sizes;                                            // innermost first
    std::array<Dims, Broadcast::kMaxOperands> strides;     // innermost first
    std::int64_t size = 1;
    std::array<std::int64_t, Broadcast::kMaxOperands> step{};
    for (std::size_t d = rank; d-- > 0;) {
        const std::int64_t n = b.out[d];
        if (n == 1)
            continue;
        bool merges = true;
        for (std::size_t i = 0; i < b.operands; ++i)
            merges = merges && (size == 1 || b.strides[i][d] == step[i] * size);
        if (merges && size > 1) {
            size *= n;
            continue;
        }
        if (size > 1) {
            sizes.push_back(size);
            for (std::size_t i = 0; i < b.operands; ++i)
                strides[i].push_back(step[i]);
        }
        size = n;
        for (std::size_t i = 0; i < b.operands; ++i)
            step[i] = b.strides[i][d];
    }
    sizes.push_back(size);
    for (std::size_t i = 0; i < b.operands; ++i)
        strides[i].push_back(step[i]);
    c.out.assign(sizes.rbegin(), sizes.rend());
    for (std::size_t i = 0; i < b.operands; ++i)
        c.strides[i].assign(strides[i].rbegin(), strides[i].rend());
    return c;
}

} // namespace costscope::cpu
