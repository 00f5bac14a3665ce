// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/op_cost.h"

#include <optional>

namespace costscope::opcost {

// What every per-family costing function sees.
struct Ctx {
    const Node& node;
    const std::vector<TensorRef>& in;
    const TensorRef& out;
    const Bindings& b;

    const Shape* input(std::size_t i) const { return i < in.size() ? in[i].shape : nullptr; }
    std::optional<std::uint64_t> outElements() const { return out.elements; }
    std::optional<std::uint64_t> inElements(std::size_t i) const
    {
        return i < in.size() ? in[i].elements : std::nullopt;
    }
    std::optional<std::uint64_t> outBytes() const { return bytesOf(out); }
    static std::optional<std::uint64_t> bytesOf(const TensorRef& t);
    // Dim `i` of a shape, counted from the end when negative; nullopt when unbound or out of range.
    std::optional<std::int64_t> dim(const Shape* s, int i) const;
};

// Σ input bytes as stored + output bytes into w.bytes; false (and w.skipped) when a size is unbound.
bool addIoBytes(const Ctx& c, OpWork& w);
OpWork skippedWork(std::string why);

OpWork elementwise(const Ctx& c);
OpWork layout(const Ctx& c);
OpWork matmul(const Ctx& c);
OpWork gemm(const Ctx& c);
OpWork conv(const Ctx& c);
OpWork convTranspose(const Ctx& c);
OpWork attention(const Ctx& c);
OpWork pool(const Ctx& c);
OpWork norm(const Ctx& c);
OpWork softmax(const Ctx& c);
OpWork reduce(const Ctx& c);
OpWork spectral(const Ctx& c);
OpWork gather(const Ctx& c);
// A node standing for a fused set (ir/fused_op.h): one kernel over the boundary bytes doing the members' FLOPs.
OpWork fused(const Ctx& c);
// If, Loop and Scan: their subgraphs' work (op_cost_control_flow.cpp).
OpWork controlFlow(const Ctx& c);

} // namespace costscope::opcost
