// SPDX-License-Identifier: MIT
#pragma once
// One cuBLAS product in row-major terms, shared by the matmul and conv lowerings.

#include "cuda/cuda_lower.h"

#include <optional>
#include <string>

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

// cuBLAS's storage type of a matmul operand: F32, F16 or BF16 (all operands of one product share it); nullopt for
// the others.
inline std::optional<cudaDataType_t> gemmStorageType(DType t)
{
    switch (t) {
    case DType::F32:
        return CUDA_R_32F;
    case DType::F16:
        return CUDA_R_16F;
    case DType::BF16:
        return CUDA_R_16BF;
    default:
        return std::nullopt;
    }
}

// The compute type of a product over `storage`: --precision's for F32 storage; 16-bit operands always accumulate
// in F32 (CUBLAS_COMPUTE_32F, what PyTorch's bf16/fp16 matmuls use), whatever --precision says.
inline cublasComputeType_t computeTypeFor(MatMulPrecision p, cudaDataType_t storage)
{
    return storage == CUDA_R_32F ? computeType(p) : CUBLAS_COMPUTE_32F;
}

// The matmul's label suffix: --precision's name over F32 storage ("tf32"), else the storage ("bf16 native").
inline std::string gemmModeName(MatMulPrecision p, DType storage)
{
    if (storage == DType::F16)
        return "f16 native";
    if (storage == DType::BF16)
        return "bf16 native";
    return precisionName(p);
}

// One (strided-batched) row-major product: C[m,n] = alpha * opA(A) opB(B) + beta * C.
struct GemmCall {
    cublasHandle_t handle = nullptr;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    cudaDataType_t type = CUDA_R_32F; // of A, B and C (alpha and beta stay float: compute 32F)
    bool ta = false, tb = false;
    int m = 0, n = 0, k = 0, lda = 0, ldb = 0;
    long long strideA = 0, strideB = 0, strideC = 0;
    int batch = 1;
    float alpha = 1, beta = 0;

    void operator()(cudaStream_t s, const void* a, const void* b, void* c) const
    {
        cublasSetStream(handle, s);
        const cublasOperation_t opA = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opB = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
        if (batch == 1)
            cublasGemmEx(handle, opB, opA, n, m, k, &alpha, b, type, ldb, a, type, lda, &beta, c, type, n, compute,
                         CUBLAS_GEMM_DEFAULT);
        else
            cublasGemmStridedBatchedEx(handle, opB, opA, n, m, k, &alpha, b, type, ldb, strideB, a, type, lda, strideA,
                                       &beta, c, type, n, strideC, batch, compute, CUBLAS_GEMM_DEFAULT);
    }
};

} // namespace costscope::cuda
