// SPDX-License-Identifier: MIT
#pragma once
// The fused element-wise kernel: a small program of Binary and Activation ops evaluated per output element in
// registers, its inputs read with broadcasting strides (engine/fusion_plan.h says which nodes form a program).

#include "cuda/cuda_kernels.h"

namespace costscope::cuda {

constexpr int kMaxFusedInputs = 8;
constexpr int kMaxFusedOps = 32;

// One op of the program: register `a` op register `b` (Binary) or act(register `a`) (Activation; a Cast to F32 is
// the activation None). Registers 0..inputs-1 hold the inputs; op j writes register inputs + j.
struct FusedOp {
    bool isBinary = false;
    BinaryOp binary = BinaryOp::Add;
    ActArgs act;
    std::uint8_t a = 0, b = 0;
};

struct FusedElementwiseArgs {
    int rank = 0;
    std::int64_t dims[kMaxRank] = {}; // the output's, with dims that every input walks alike merged
    std::int64_t count = 0;
    int inputs = 0;
    const void* in[kMaxFusedInputs] = {};
    ElemType inType[kMaxFusedInputs] = {}; // converted to F32 as they are read
    std::int64_t strides[kMaxFusedInputs][kMaxRank] = {};
    int ops = 0;
    FusedOp code[kMaxFusedOps] = {};
    void* out = nullptr; // the last op's register, stored as outType (F32, F16 or BF16)
    ElemType outType = ElemType::F32;
};
void launchFusedElementwise(const FusedElementwiseArgs& a, cudaStream_t s);

// Whether the backend fuses attention patterns (FusionOptions::attention): yes unless the environment sets
// COSTSCOPE_CUDA_FUSED_ATTENTION=0. The tiled attention kernel takes 0.41-0.67x the unfused kernels' time on an H200
// (bench_cuda_fusion); the warp-per-row kernel before it took 1.7-2.2x, and fusing was off by default then.
bool fusedAttentionRequested();
// Whether fused attention reads q, k and v in place where they are slices of one packed tensor (qkv_views.h), and
// the slices' copies no other node reads are not launched: yes unless the environment sets COSTSCOPE_CUDA_QKV_VIEWS=0.
bool qkvViewsRequested();

} // namespace costscope::cuda
