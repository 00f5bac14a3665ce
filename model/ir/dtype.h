// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace costscope {

// F8E4M3 and F8E5M2 are ONNX's FLOAT8E4M3FN and FLOAT8E5M2 (OCP 8-bit floats); they come last so that the others
// keep their values.
enum class DType : std::uint8_t { Bool, I8, U8, F16, BF16, I16, F32, I32, U32, F64, I64, C64, C128, F8E4M3, F8E5M2 };

inline constexpr DType kAllDTypes[] = {DType::Bool, DType::I8,  DType::U8,   DType::F16,    DType::BF16,
                                       DType::I16,  DType::F32, DType::I32,  DType::U32,    DType::F64,
                                       DType::I64,  DType::C64, DType::C128, DType::F8E4M3, DType::F8E5M2};

std::uint32_t byteSize(DType t);
std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);
bool isFloating(DType t);

} // namespace costscope
