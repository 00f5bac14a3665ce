// SPDX-License-Identifier: MIT
#include "analysis/fp8_gemm_rule.h"

namespace costscope {

bool isFp8(DType t)
{
    return t == DType::F8E4M3 || t == DType::F8E5M2;
}

bool isFp8GemmCandidate(OpKind kind, DType a, DType b)
{
    const bool gemm = kind == OpKind::MatMul || kind == OpKind::Gemm || kind == OpKind::FusedMatMulBiasAct;
    return gemm && (isFp8(a) || isFp8(b));
}

std::optional<std::string> fp8GemmRefusal(const Fp8Gemm& g)
{
    if (!isFp8(g.a) || !isFp8(g.b))
        return "operands " + std::string(dtypeName(g.a)) + " and " + std::string(dtypeName(g.b)) + " are not both fp8";
    if (g.a == DType::F8E5M2 && g.b == DType::F8E5M2)
        return std::string("cuBLASLt has no F8E5M2 x F8E5M2 product");
    const bool outOk = g.out == DType::F32 || g.out == DType::F16 || g.out == DType::BF16 || isFp8(g.out);
    if (!outOk)
        return "no fp8 product writes " + std::string(dtypeName(g.out));
    if (g.kind == OpKind::FusedMatMulBiasAct)
        return std::string("the bias/activation epilogue has no fp8 lowering");
    if (g.addsC)
        return std::string("Gemm's C input has no fp8 lowering");
    for (auto [name, v] : {std::pair{"m", g.m}, std::pair{"n", g.n}, std::pair{"k", g.k}})
        if (v <= 0 || v % 16 != 0)
            return std::string(name) + " = " + std::to_string(v) + " is not a positive multiple of 16";
    return std::nullopt;
}

} // namespace costscope
