// SPDX-License-Identifier: MIT
#pragma once
// The cuBLASLt algorithm of one matmul, chosen by timing: cuBLASLt's heuristic ranks its candidates by a model, and
// its first choice is often not the fastest for thin products (batch-1 and batch-8 linear layers, widths 64-256);
// NVIDIA's cuBLASLt samples and the frameworks' autotuners (torch.compile max-autotune, cuBLASLt's own
// LtSgemmSimpleAutoTuning) time the top few candidates once and keep the fastest. A plan does it once, when it is
// compiled, on its own stream, so every later run (and the cost model's calibration, which compiles plans the same
// way) runs the chosen algorithm.
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace costscope::cuda {

// One cuBLASLt matmul's operands, as cublasLtMatmul takes them.
struct LtOperands {
    cublasLtHandle_t handle = nullptr;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    const void *pa = nullptr, *pb = nullptr, *pc = nullptr;
    void* pd = nullptr;
    float beta = 0;
    void* workspace = nullptr;
    std::uint64_t workspaceBytes = 0;
};

// The cuBLASLt objects of one matmul, kept for the plan's lifetime by the launch that uses them (destroyed with it).
struct LtMatmul {
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulPreference_t preference = nullptr;
    cublasLtMatmulAlgo_t algo{};
    LtMatmul() = default;
    LtMatmul(const LtMatmul&) = delete;
    LtMatmul& operator=(const LtMatmul&) = delete;
    ~LtMatmul()
    {
        if (preference)
            cublasLtMatmulPreferenceDestroy(preference);
        for (cublasLtMatrixLayout_t l : {a, b, c})
            if (l)
                cublasLtMatrixLayoutDestroy(l);
        if (desc)
            cublasLtMatmulDescDestroy(desc);
    }
};

// How many heuristic candidates a plan times: COSTSCOPE_CUDA_LT_AUTOTUNE=N (1 keeps cuBLASLt's first choice, for
// A/B measurements), else 8.
int ltCandidateCount();

// The index in `found[0..count)` of the fastest candidate that runs, timed on `stream` (a few warm-up calls, then
// the median of a few timed graph replays); 0 when only one is offered. Writes the output buffer.
int fastestLtCandidate(const LtOperands& op, const cublasLtMatmulHeuristicResult_t* found, int count,
                       cudaStream_t stream);

} // namespace costscope::cuda
