// SPDX-License-Identifier: MIT
#pragma once
// One cuBLASLt FP8 product in row-major terms: D[batch][m,n] = alpha · A[m,k] · Bᵀ, with A stored [m,k] and B stored
// transposed, Bᵀ[n,k]. cuBLASLt's FP8 kernels take only the "TN" layout (its A transposed, its B not): row-major D is
// the column-major Dᵀ[n,m] = op(Bᵀ as k×n, transposed) · (A as k×m), so cuBLASLt's A is our Bᵀ and its B our A,
// both k-contiguous and neither copied here (the callers copy an operand stored otherwise: cuda/fp8_dispatch.h).
// Scales stay 1 (no scale pointers), accumulation is F32 without fast accumulation (cuBLASLt then promotes the
// tensor cores' partial sums into F32 at intervals of k). Shared by the calibration's GEMM timer and the backend's
// fp8 MatMul/Gemm lowering.

#include "cuda/lt_autotune.h"
#include "ir/diagnostic.h"

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace costscope::cuda {

struct Fp8Product {
    cudaDataType_t a = CUDA_R_8F_E4M3, bt = CUDA_R_8F_E4M3; // E4M3 or E5M2 (not both E5M2)
    cudaDataType_t out = CUDA_R_16BF;                       // D (and C): F32, F16 or BF16
    int m = 0, n = 0, k = 0;
    int batch = 1;
    long long strideA = 0, strideBt = 0; // elements between products (0: shared); D's is m·n
    float alpha = 1;
};

class Fp8Matmul {
public:
    // The descriptors and cuBLASLt's candidate algorithms; an error where cuBLASLt has none for the product.
    static Result<std::shared_ptr<Fp8Matmul>> create(cublasLtHandle_t handle, const Fp8Product& p,
                                                     std::uint64_t workspaceBytes);
    Fp8Matmul(const Fp8Matmul&) = delete;
    Fp8Matmul& operator=(const Fp8Matmul&) = delete;

    // Keeps the fastest candidate on these operands (cuda/lt_autotune.h); the first one until then.
    void chooseFastest(const void* a, const void* bt, void* d, void* workspace, cudaStream_t stream);
    cublasStatus_t operator()(cudaStream_t stream, const void* a, const void* bt, void* d, void* workspace) const;

private:
    Fp8Matmul() = default;
    cublasLtHandle_t m_handle = nullptr;
    LtMatmul m_lt; // its a is our Bᵀ, its b our A, its c is D
    std::vector<cublasLtMatmulHeuristicResult_t> m_found;
    float m_alpha = 1;
    std::uint64_t m_workspaceBytes = 0;
};

} // namespace costscope::cuda
