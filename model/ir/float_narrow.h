// SPDX-License-Identifier: MIT
#pragma once
// fp32 → fp16 / bf16 / fp8 (OCP E4M3FN) bit patterns, round to nearest even, for re-typing a graph's stored data
// (edit/precision_transform.h). Hand-written: the model library has no fp16 library to lean on, and C++20 has no
// std::float16_t or std::bfloat16_t (C++23).

#include <cstdint>

namespace costscope {

std::uint16_t floatToHalfBits(float f);
std::uint16_t floatToBf16Bits(float f);
// Saturates to ±448 (E4M3FN has no infinity); NaN stays NaN.
std::uint8_t floatToE4M3Bits(float f);

} // namespace costscope
