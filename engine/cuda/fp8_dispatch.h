// SPDX-License-Identifier: MIT
#pragma once
// Which fp8 GEMMs the CUDA backend runs as FP8 products (cuda/fp8_matmul.h) and how: a pure function of the node,
// its resolved shapes and the GPU's compute capability, checked without a GPU (tests/engine/test_cuda_fp8.cpp). The
// others run widened to F32 between Casts (engine/narrow_float_casts.h), the reason kept in their kernel's label.

#include "analysis/fp8_gemm_rule.h"
#include "ir/diagnostic.h"
#include "ir/graph.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace costscope::cuda {

// Compute capability (major · 10 + minor) from which GPUs have FP8 tensor cores (Ada sm_89, Hopper sm_90).
inline constexpr int kFp8Capability = 89;

// An fp8 GEMM as the FP8 lowering runs it: row-major out[batch][m,n] = A[m,k] · B[k,n], with A read from the first
// operand (transposed into a scratch copy where transA: Gemm's trans_a) and B read as Bᵀ[n,k] (cuBLASLt's FP8
// products take both operands k-contiguous, the "TN" layout: the second operand is transposed into a copy unless
// Gemm's trans_b already stores it so).
struct Fp8GemmLayout {
    Fp8Gemm gemm;           // m is the rows of one batch, the batch folded in where B is shared
    std::int64_t batch = 1; // products in one strided-batched call, each with its own A and B
    bool transA = false;    // the first operand is stored [k,m]
    bool copyB = true;      // the second operand is stored [k,n] and needs the transposed copy
    float alpha = 1;        // Gemm's alpha
};

// "fp8 F8E4M3xF8E4M3->BF16": the kernel label's mode of an FP8 product.
std::string fp8GemmName(DType a, DType b, DType out);

// The layout of node n's product (MatMul, Gemm or FusedMatMulBiasAct with an fp8 operand) over operands of these
// dims and dtypes, or why it runs widened (analysis/fp8_gemm_rule.h's rules, and batch dims that broadcast other
// than a second operand shared by every batch).
Result<Fp8GemmLayout> fp8GemmLayout(const Node& n, const std::vector<std::int64_t>& a, DType aType,
                                    const std::vector<std::int64_t>& b, DType bType, std::size_t inputCount);

// Asks the library whether it has an FP8 algorithm for a layout: nullopt if so, else why not.
using Fp8LibraryCheck = std::function<std::optional<std::string>(const Fp8GemmLayout&)>;

// The fp8 GEMMs of g that run widened, by node id, with why: a GPU below compute capability 8.9, fp8GemmLayout's
// refusals, unbound dims, then `library`'s (where set) for the rest.
std::map<NodeId, std::string> fp8GemmFallbacks(const Graph& g, const Bindings& bindings, int capability,
                                               const Fp8LibraryCheck& library);

} // namespace costscope::cuda
