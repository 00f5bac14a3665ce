// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace costscope::cuda {

// Math mode of the cuBLAS matmuls (MatMul, Gemm, FusedMatMulBiasAct). Storage stays F32 in every mode: TF32 and
// BF16 let cuBLAS round the operands for the tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32 / _FAST_16BF).
enum class MatMulPrecision { F32, TF32, BF16 };

struct CudaOptions {
    MatMulPrecision precision = MatMulPrecision::F32;
};

// "fp32", "tf32", "bf16": the name shown in node labels ("MatMul[tf32]").
std::string precisionName(MatMulPrecision p);

} // namespace costscope::cuda
