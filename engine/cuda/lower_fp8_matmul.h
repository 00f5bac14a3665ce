// SPDX-License-Identifier: MIT
#pragma once
// The lowering of MatMul and Gemm nodes whose operands are fp8 and that cuda/fp8_dispatch.h lets run as FP8 products.

#include "cuda/cuda_lower.h"
#include "cuda/fp8_dispatch.h"
#include "cuda/fp8_matmul.h"

namespace costscope::cuda {

// The cuBLASLt product of a layout (its operand, result and scale types, sizes and batch strides).
Fp8Product fp8ProductOf(const Fp8GemmLayout& l);
LowerResult lowerFp8Gemm(LowerContext& c);

} // namespace costscope::cuda
