// SPDX-License-Identifier: MIT
#pragma once
// One cuBLAS product in row-major terms, shared by the matmul and conv lowerings.

#include "cuda/cuda_lower.h"

namespace costscope::cuda {

inline cublasComputeType_t computeType(MatMulPrecision p)
{
    switch (p) {
    case MatMulPrecision::F32: return CUBLAS_COMPUTE_32F;
    case MatMulPrecision::TF32: return CUBLAS_COMPUTE_32F_FAST_TF32;
    case MatMulPrecision::BF16: return CUBLAS_COMPUTE_32F_FAST_16BF;
    }
    return CUBLAS_COMPUTE_32F;
}

// One (strided-batched) row-major product: C[m,n] = alpha * opA(A) opB(B) + beta * C.
struct GemmCall {
    cublasHandle_t handle = nullptr;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    bool ta = false, tb = false;
    int m = 0, n = 0, k = 0, lda = 0, ldb = 0;
    long long strideA = 0, strideB = 0, strideC = 0;
    int batch = 1;
    float alpha = 1, beta = 0;

    void operator()(cudaStream_t s, const float* a, const float* b, float* c) const
    {
        cublasSetStream(handle, s);
        const cublasOperation_t opA = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opB = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
        if (batch == 1)
            cublasGemmEx(handle, opB, opA, n, m, k, &alpha, b, CUDA_R_32F, ldb, a, CUDA_R_32F, lda, &beta, c,
                         CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT);
        else
            cublasGemmStridedBatchedEx(handle, opB, opA, n, m, k, &alpha, b, CUDA_R_32F, ldb, strideB, a, CUDA_R_32F,
                                       lda, strideA, &beta, c, CUDA_R_32F, n, strideC, batch, compute,
                                       CUBLAS_GEMM_DEFAULT);
    }
};

} // namespace costscope::cuda
