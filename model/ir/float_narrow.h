// SPDX-License-Identifier: MIT
#pragma once
// fp32 → fp16 / bf16 / fp8 (OCP E4M3FN and E5M2) bit patterns, and fp8 back to fp32,, round to nearest even, for
// re-typing a graph's stored data (edit/precision_transform.h). Hand-written: the model library has no fp16 library to
// lean on, and C++20 has no std::float16_t or std::bfloat16_t (C++23).

#include <cstdint>

namespace costscope {

std::uint16_t floatToHalfBits(float f);
std::uint16_t floatToBf16Bits(float f);
// Saturates to ±448 (E4M3FN has no infinity); NaN stays NaN.
std::uint8_t floatToE4M3Bits(float f);
// Overflows to ±infinity past 57344, as ONNX's saturate=0 cast does.
std::uint8_t floatToE5M2Bits(float f);
// The exact values of the 8-bit patterns (E4M3FN: 0x7f and 0xff are NaN; E5M2: IEEE-like, with infinities).
float e4m3BitsToFloat(std::uint8_t bits);
float e5m2BitsToFloat(std::uint8_t bits);

} // namespace costscope
