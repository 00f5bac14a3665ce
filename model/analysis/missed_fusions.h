// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// Why RLX's fusion pass leaves a pattern unfused, in the terms of its fusion report. Two fusions are checked:
// the GEMM epilogue (FusedMatMulBiasAct: a MatMul whose one reader is an Add of a bias vector, then Gelu or no
// activation) and the SwiGLU MLP (Mul(Silu(MatMul(x, Wgate)), MatMul(x, Wup))), with the shared-input GEMM that
// merges the projections reading one tensor (2: gate/up, 3: Q/K/V).
enum class MissedFusionReason {
    MultiConsumer,         // the MatMul's product feeds its bias Add and other nodes too
    NonAddBiasConsumer,    // the MatMul's one reader combines it with a weight by Sub/Mul/Div, not Add
    BiasRankTooHigh,       // the added bias has rank > 1 (the epilogue takes a vector over the last dim)
    UnsupportedActivation, // the activation after the bias is not one the epilogue applies (Gelu)
    SharedMatMulCount,     // more MatMuls read one tensor than a shared-input GEMM merges
    SwiGluOrder,           // Mul(up, Silu(gate)): the fused SwiGLU takes the gated operand first
    SwiGluSharedInput,     // the gate and up projections read different tensors
};

struct MissedFusion {
    NodeId node = 0; // where the badge goes: the MatMul, or the SwiGLU's Mul
    MissedFusionReason reason = MissedFusionReason::MultiConsumer;
    std::string hint; // what is in the way and what would let it fuse, in one sentence
};

// Every missed fusion of `g`, in graph order (a node may have one of each pattern, at most one reason per pattern).
std::vector<MissedFusion> missedFusions(const Graph& g);
// "multi-consumer", "non-add bias consumer", ... as the fusion report names them.
std::string_view missedFusionName(MissedFusionReason reason);

} // namespace costscope
