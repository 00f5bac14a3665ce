// SPDX-License-Identifier: MIT
#include "ir/precision.h"

namespace costscope {

std::string_view precisionName(Precision p)
{
    switch (p) {
    case Precision::Fp32:
        return "fp32";
    case Precision::Tf32:
        return "tf32";
    case Precision::Fp16:
        return "fp16";
    case Precision::Bf16:
        return "bf16";
    case Precision::Fp8:
        return "fp8";
    case Precision::Int8:
        return "int8";
    case Precision::Fp64:
        return "fp64";
    }
    return "?";
}

std::optional<Precision> parsePrecision(std::string_view name)
{
    for (Precision p : kAllPrecisions)
        if (precisionName(p) == name)
            return p;
    return std::nullopt;
}

Precision precisionOfDType(DType t)
{
    switch (t) {
    case DType::F16:
        return Precision::Fp16;
    case DType::BF16:
        return Precision::Bf16;
    case DType::F8E4M3:
    case DType::F8E5M2:
        return Precision::Fp8;
    case DType::I8:
    case DType::U8:
        return Precision::Int8;
    case DType::F64:
    case DType::C128:
        return Precision::Fp64;
    default:
        return Precision::Fp32;
    }
}

bool isReducedFloat(Precision p)
{
    return p == Precision::Tf32 || p == Precision::Fp16 || p == Precision::Bf16 || p == Precision::Fp8;
}

Precision computePrecision(const Node& node, const std::vector<const Shape*>& inputs)
{
    if (auto named = node.op.attrs.getString(kComputePrecisionAttr))
        if (auto p = parsePrecision(*named))
            return *p;
    for (const Shape* s : inputs)
        if (s && (isFloating(s->dtype) || s->dtype == DType::I8 || s->dtype == DType::U8))
            return precisionOfDType(s->dtype);
    return precisionOfDType(node.shape.dtype);
}

} // namespace costscope
