// SPDX-License-Identifier: MIT
#pragma once
// GEMMs per precision as cuBLAS runs them, timed: what the calibration measures into a profile's per-precision GEMM
// tables (analysis/dtype_rates.h), and what a check of those predictions measures at other shapes.

#include "ir/diagnostic.h"
#include "ir/precision.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>

namespace costscope {

// Row-major C[m,n] = A[m,k] · B[k,n] with random operands:
//   fp32  cublasGemmEx, CUBLAS_COMPUTE_32F (the sgemm of the fp32 table)
//   tf32  fp32 storage, CUBLAS_COMPUTE_32F_FAST_TF32
//   fp16, bf16  16-bit A, B and C, fp32 accumulate (CUBLAS_COMPUTE_32F)
//   fp8   cuBLASLt, E4M3 A and B, BF16 C, fp32 accumulate (compute capability 8.9 and up; m, n, k multiples of 16)
class CudaGemmTimer {
public:
    // Buffers for products up to maxElements elements per operand.
    static Result<std::unique_ptr<CudaGemmTimer>> create(int device, std::size_t maxElements);
    ~CudaGemmTimer();
    CudaGemmTimer(const CudaGemmTimer&) = delete;
    CudaGemmTimer& operator=(const CudaGemmTimer&) = delete;

    // Median seconds of `repeats` products after a warm-up; an error where the precision does not run here.
    Result<double> seconds(Precision precision, std::int64_t m, std::int64_t n, std::int64_t k, int repeats);
    bool supports(Precision precision) const;

private:
    CudaGemmTimer() = default;
    Result<bool> launch(Precision precision, int m, int n, int k);

    int m_capability = 0; // major · 10 + minor
    std::size_t m_maxElements = 0;
    cudaStream_t m_stream = nullptr;
    cublasHandle_t m_blas = nullptr;
    cublasLtHandle_t m_lt = nullptr;
    void* m_a = nullptr;
    void* m_b = nullptr;
    void* m_c = nullptr;
    void* m_workspace = nullptr;
};

} // namespace costscope
