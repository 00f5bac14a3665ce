// SPDX-License-Identifier: MIT
#pragma once
// Which nodes of a graph a backend may run as one kernel. Two kinds of group:
//  - an element-wise group: F32 Binary/Activation/Cast nodes evaluated per element of the group's output, every
//    member's shape broadcasting into it (a member of a smaller shape is recomputed per output element);
//  - a GEMM epilogue: a MatMul or FusedMatMulBiasAct whose weight is a matrix, followed by a bias Add (a vector
//    over the output's last dim), a residual Add (a tensor of the output's shape) and a Relu or GeluApprox, in the
//    order a GEMM epilogue computes them: act(A B + bias + residual);
//  - attention: MatMul(q, k^T), times or divided by a scalar constant, plus an optional additive mask, Softmax over
//    the last dim, MatMul with v; with the Transposes around it when q, k, v and the result are
//    [batch, seq, heads, head_dim] (the heads-interleaved layout of an ONNX export), one attention kernel.
// A group has one exit, the only member other nodes (or the graph's outputs) may read; every other member is read
// by members alone, so its value never needs to be written. Qt-free, backend-free: the CUDA backend lowers the
// groups, and the tests check the decisions on the CPU side.

#include "ir/graph.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

struct FusionOptions {
    bool elementWise = true;
    bool gemmEpilogue = true;
    // Off unless a backend has an attention kernel worth it: the CUDA backend turns it on (cuda/fused_kernels.h,
    // fusedAttentionRequested: its tiled kernel beats the unfused MatMul/Softmax kernels).
    bool attention = false;
    // Element-wise groups, GEMM epilogues and attention over F16/BF16 too (each group in one storage type for its GEMM
    // or attention kernel, whose additive mask and scale constant have that type as well; the element-wise program
    // converting each input as it reads it): for backends that run them natively (CUDA).
    bool sixteenBit = false;
    // Limits of the element-wise kernel: distinct tensors it reads, and ops in its program.
    std::size_t maxInputs = 8;
    std::size_t maxOps = 32;
};

// What an attention kernel reads: q, k and v (node positions) as [..., seq, heads * head_dim] with `heads` heads
// interleaved (heads 1: every leading dim is a batch dim, k as [..., seq_k, head_dim], not transposed), the
// additive mask over the scores, and the scale of the scores.
struct AttentionOperands {
    std::size_t q = 0, k = 0, v = 0;
    std::optional<std::size_t> mask;
    std::int64_t heads = 1;
    double scale = 1;
};

struct FusionGroup {
    enum class Kind { ElementWise, GemmEpilogue, Attention };
    Kind kind = Kind::ElementWise;
    std::vector<std::size_t> members; // node positions, inputs before their users; the exit is the last
    // A GEMM epilogue's operands: the tensors (node positions) of its bias and residual, and its activation.
    std::optional<std::size_t> bias, residual;
    std::string activation;      // "", "Relu" or "GeluApprox"
    AttentionOperands attention; // of an attention group
    std::size_t exit() const { return members.back(); }
};

struct FusionPlan {
    std::vector<FusionGroup> groups;
    std::vector<int> groupOf; // per node position: its group's index, or -1

    bool isFused(std::size_t pos) const { return groupOf[pos] >= 0; }
    // A member whose value stays inside its group's kernel.
    bool isInternal(std::size_t pos) const { return isFused(pos) && groups[std::size_t(groupOf[pos])].exit() != pos; }
};

// The groups of `g` with its shapes resolved by `bindings` (a node whose shape does not resolve is not fused).
// Groups are disjoint; a node in no group runs as it would without fusion.
FusionPlan planFusion(const Graph& g, const Bindings& bindings, const FusionOptions& options = {});

// The activation names a GEMM epilogue applies (cuBLASLt's RELU and GELU, the latter being the tanh form).
bool isEpilogueActivation(const std::string& name);
// Binary sub-ops and activations an element-wise group evaluates.
bool isFusableBinary(const std::string& subOp);
bool isFusableActivation(const std::string& name);
// "Binary.Add+Activation.Relu" for a group's members.
std::string fusionGroupName(const Graph& g, const FusionGroup& group);

} // namespace costscope
