// SPDX-License-Identifier: MIT
#pragma once
// Which GEMMs with fp8 operands run as FP8 tensor-core products: cuBLASLt's FP8 rules (the CUDA backend's only FP8
// path, cuda/fp8_matmul.h) as a pure function of the op and its resolved shape, so that the CUDA backend's choice
// and the Costscope model's price agree. A refused GEMM runs widened to F32 on the CUDA backend (and is priced at the
// fp32 rate); a GPU older than compute capability 8.9 refuses every one (the backend checks that, and the profiles
// of such GPUs carry no fp8 peak).

#include "ir/dtype.h"
#include "ir/op.h"

#include <cstdint>
#include <optional>
#include <string>

namespace costscope {

// F8E4M3 or F8E5M2.
bool isFp8(DType t);

// One GEMM as the rule sees it: row-major out[m,n] = a[m,k] b[k,n], any batch folded into m.
struct Fp8Gemm {
    OpKind kind = OpKind::MatMul;
    DType a = DType::F8E4M3, b = DType::F8E4M3, out = DType::BF16;
    std::int64_t m = 0, n = 0, k = 0;
    bool addsC = false; // Gemm with a C input and beta != 0
};

// Whether an op of this kind with these operand dtypes is an fp8 GEMM at all (a MatMul, Gemm or FusedMatMulBiasAct
// with an fp8 operand): the GEMMs the rule below decides.
bool isFp8GemmCandidate(OpKind kind, DType a, DType b);

// nullopt when the GEMM runs as an FP8 product (on a GPU that has them); else why not, in a few words:
//   both operands fp8, not both E5M2 (cuBLASLt has E4M3×E4M3, E4M3×E5M2 and E5M2×E4M3);
//   the output F32, F16, BF16 or fp8 (fp8 through an F32 result rounded once);
//   m, n and k positive multiples of 16 (FP8 tensor cores read 16-byte-aligned rows of k; NVIDIA's FP8 sample and
//   cuBLASLt's FP8 kernels assume it);
//   a plain MatMul, or a Gemm without C (the bias and activation epilogues and C have no fp8 lowering).
std::optional<std::string> fp8GemmRefusal(const Fp8Gemm& g);

} // namespace costscope
