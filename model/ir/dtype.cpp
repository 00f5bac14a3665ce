// SPDX-License-Identifier: MIT
#include "ir/dtype.h"

namespace costscope {

std::uint32_t byteSize(DType t)
{
    switch (t) {
    case DType::Bool:
    case DType::I8:
    case DType::U8:
    case DType::F8E4M3:
    case DType::F8E5M2:
        return 1;
    case DType::F16:
    case DType::BF16:
    case DType::I16: return 2;
    case DType::F32:
    case DType::I32:
    case DType::U32: return 4;
    case DType::F64:
    case DType::I64:
    case DType::C64: return 8;
    case DType::C128: return 16;
    }
    return 0;
}

std::string_view dtypeName(DType t)
{
    switch (t) {
    case DType::Bool: return "Bool";
    case DType::I8: return "I8";
    case DType::U8: return "U8";
    case DType::F16: return "F16";
    case DType::BF16: return "BF16";
    case DType::I16: return "I16";
    case DType::F32: return "F32";
    case DType::I32: return "I32";
    case DType::U32: return "U32";
    case DType::F64: return "F64";
    case DType::I64: return "I64";
    case DType::C64: return "C64";
    case DType::C128: return "C128";
    case DType::F8E4M3:
        return "F8E4M3";
    case DType::F8E5M2:
        return "F8E5M2";
    }
    return "?";
}

std::optional<DType> parseDType(std::string_view name)
{
    for (DType t : kAllDTypes)
        if (dtypeName(t) == name)
            return t;
    return std::nullopt;
}

bool isFloating(DType t)
{
    return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64 || t == DType::C64
           || t == DType::C128 || t == DType::F8E4M3 || t == DType::F8E5M2;
}

} // namespace costscope
