// SPDX-License-Identifier: MIT
// IEEE half and bfloat16 to and from float. The CPU backend holds F16/BF16 tensors as their 16-bit patterns and
// computes in F32; conversions round to nearest even, as numpy's astype does, so results match ONNX's references.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace costscope {

inline float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1f;
    std::uint32_t mantissa = h & 0x3ff;
    if (exponent == 0x1f) // inf or nan
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    if (exponent != 0)
        return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
    if (mantissa == 0)
        return std::bit_cast<float>(sign);
    // Subnormal half: normalise into a float exponent.
    int e = -1;
    do {
        ++e;
        mantissa <<= 1;
    } while (!(mantissa & 0x400));
    return std::bit_cast<float>(sign | std::uint32_t(112 - e) << 23 | ((mantissa & 0x3ff) << 13));
}

inline std::uint16_t floatToHalf(float f)
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000);
    const std::uint32_t absBits = x & 0x7fffffff;
    if (absBits >= 0x7f800000) // inf or nan (nan keeps a quiet payload bit)
        return static_cast<std::uint16_t>(sign | 0x7c00 | (absBits > 0x7f800000 ? 0x200 : 0));
    if (absBits >= 0x477ff000) // rounds to beyond 65504
        return static_cast<std::uint16_t>(sign | 0x7c00);
    if (absBits < 0x38800000) { // half subnormal or zero: round the value at 2^-24 granularity
        const float scaled = std::bit_cast<float>(absBits) * 16777216.0f; // exact: a power of two
        const auto rounded = static_cast<std::uint32_t>(std::nearbyint(scaled));
        return static_cast<std::uint16_t>(sign | rounded);
    }
    const std::uint32_t rebased = absBits - (112u << 23);
    const std::uint32_t lsb = (rebased >> 13) & 1;
    return static_cast<std::uint16_t>(sign | ((rebased + 0xfff + lsb) >> 13));
}

inline float bf16ToFloat(std::uint16_t b)
{
    return std::bit_cast<float>(std::uint32_t(b) << 16);
}

inline std::uint16_t floatToBf16(float f)
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    if ((x & 0x7fffffff) > 0x7f800000)
        return static_cast<std::uint16_t>((x >> 16) | 0x40);
    return static_cast<std::uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

} // namespace costscope
