// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/kernel.h"

#include <algorithm>
#include <array>

namespace costscope::cpu {

// Numpy broadcasting of up to kMaxOperands inputs onto one output.
struct Broadcast {
    static constexpr std::size_t kMaxOperands = 3;
    Dims shape; // the output tensor's dims
    Dims out;   // the iteration space: `shape`, or [1] for a scalar
    std::size_t operands = 0;
    std::array<Dims, kMaxOperands> strides; // element strides aligned to `out`; 0 where broadcast
    bool flat = false;                      // every input is the output's shape or a single element
    std::array<std::int64_t, kMaxOperands> flatStep{}; // in flat mode: 1, or 0 for a broadcast single element
};

std::optional<Broadcast> makeBroadcast(const std::vector<const Dims*>& inputs);

// The same iteration space with adjacent dims merged where every operand steps through both as one (contiguously,
// or not at all) and size-1 dims dropped: a per-channel bias [1,C,1,1] onto [N,C,H,W] iterates [N,C,H*W], so the
// per-row index arithmetic below runs once per H*W elements instead of once per W. Strides stay aligned to the
// returned `out`; `shape` is unchanged.
Broadcast coalesced(const Broadcast& b);

// Calls fn(outStart, count, offsets, innerStrides) over runs of consecutive output elements; offsets[i] is the
// first element of input i for the run and innerStrides[i] its step along the run. Runs are spread over the pool.
template <class Fn>
void forEachRun(ThreadPool& pool, const Broadcast& b, Fn fn)
{
    const std::int64_t total = product(b.out);
    if (total == 0)
        return;
    if (b.flat) {
        const auto& st = b.flatStep;
        pool.parallelFor(total, 1 << 15, [&](std::int64_t s, std::int64_t e) {
            std::array<std::int64_t, Broadcast::kMaxOperands> off{};
            for (std::size_t i = 0; i < b.operands; ++i)
                off[i] = st[i] * s;
            fn(s, e - s, off.data(), st.data());
        });
        return;
    }
    const Broadcast c = coalesced(b);
    const std::size_t rank = c.out.size();
    const std::int64_t inner = c.out[rank - 1];
    const std::int64_t rows = total / inner;
    std::array<std::int64_t, Broadcast::kMaxOperands> innerStride{};
    for (std::size_t i = 0; i < b.operands; ++i)
        innerStride[i] = c.strides[i][rank - 1];
    pool.parallelFor(rows, std::max<std::int64_t>(1, (1 << 15) / std::max<std::int64_t>(inner, 1)),
                     [&](std::int64_t r0, std::int64_t r1) {
                         // The row's index over the outer dims, divided out once per chunk and then stepped like an
                         // odometer: a division per row cost more than a short row's arithmetic (a [256,32] + [32]
                         // bias add took 1 ns an element).
                         Dims idx(rank, 0);
                         std::array<std::int64_t, Broadcast::kMaxOperands> off{};
                         std::int64_t rem = r0;
                         for (std::size_t d = rank - 1; d-- > 0;) {
                             idx[d] = rem % c.out[d];
                             rem /= c.out[d];
                             for (std::size_t i = 0; i < c.operands; ++i)
                                 off[i] += idx[d] * c.strides[i][d];
                         }
                         for (std::int64_t r = r0; r < r1; ++r) {
                             fn(r * inner, inner, off.data(), innerStride.data());
                             for (std::size_t d = rank - 1; d-- > 0;) {
                                 for (std::size_t i = 0; i < c.operands; ++i)
                                     off[i] += c.strides[i][d];
                                 if (++idx[d] < c.out[d])
                                     break;
                                 for (std::size_t i = 0; i < c.operands; ++i)
                                     off[i] -= c.out[d] * c.strides[i][d];
                                 idx[d] = 0;
                             }
                         }
                     });
}

} // namespace costscope::cpu
