// SPDX-License-Identifier: MIT
#include "ir/float_narrow.h"

#include <cmath>
#include <cstring>

namespace costscope {

namespace {

std::uint32_t bitsOf(float f)
{
    std::uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// |f| rounded to nearest even on a grid of `mantissaBits` fraction bits, as (exponent field, mantissa field) of a
// format with that exponent bias and smallest normal exponent; values under the smallest normal become subnormals.
std::uint32_t roundMagnitude(float magnitude, int mantissaBits, int bias)
{
    int exponent = 0;
    const float fraction = std::frexp(magnitude, &exponent); // magnitude = fraction · 2^exponent, fraction in [0.5, 1)
    const int unbiased = exponent - 1;
    const int minNormal = 1 - bias;
    // Units of the last place: 2^(e - mantissaBits) for normals, fixed at the smallest normal's for subnormals.
    const int ulpExponent = (unbiased < minNormal ? minNormal : unbiased) - mantissaBits;
    const float units = std::nearbyint(std::ldexp(fraction, exponent - ulpExponent)); // ties to even
    const auto value = static_cast<std::uint32_t>(units);
    if (unbiased < minNormal)
        return value; // subnormal (or a carry into the smallest normal: the same bits)
    // value in [2^m, 2^(m+1)]: a carry past the top moves to the next binade.
    const std::uint32_t top = 1u << mantissaBits;
    const int field = unbiased + bias + (value >= 2 * top ? 1 : 0);
    const std::uint32_t mantissa = value >= 2 * top ? 0 : value - top;
    return (static_cast<std::uint32_t>(field) << mantissaBits) | mantissa;
}

} // namespace

std::uint16_t floatToHalfBits(float f)
{
    const std::uint16_t sign = static_cast<std::uint16_t>((bitsOf(f) >> 16) & 0x8000u);
    if (std::isnan(f))
        return sign | 0x7e00u;
    const float a = std::fabs(f);
    if (a >= 65520.0f) // rounds past the largest half (65504)
        return sign | 0x7c00u;
    if (a == 0.0f)
        return sign;
    return static_cast<std::uint16_t>(sign | roundMagnitude(a, 10, 15));
}

std::uint16_t floatToBf16Bits(float f)
{
    std::uint32_t u = bitsOf(f);
    if (std::isnan(f))
        return static_cast<std::uint16_t>((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u); // round to nearest even on the dropped 16 bits
    return static_cast<std::uint16_t>(u >> 16);
}

std::uint8_t floatToE4M3Bits(float f)
{
    const std::uint8_t sign = (bitsOf(f) >> 24) & 0x80u;
    if (std::isnan(f))
        return sign | 0x7fu;
    const float a = std::fabs(f);
    if (a >= 448.0f)
        return sign | 0x7eu; // saturate to the largest finite value
    if (a == 0.0f)
        return sign;
    return static_cast<std::uint8_t>(sign | roundMagnitude(a, 3, 7));
}

std::uint8_t floatToE5M2Bits(float f)
{
    const std::uint8_t sign = (bitsOf(f) >> 24) & 0x80u;
    if (std::isnan(f))
        return sign | 0x7fu;
    const float a = std::fabs(f);
    if (a >= 61440.0f) // rounds past the largest finite value (57344)
        return sign | 0x7cu;
    if (a == 0.0f)
        return sign;
    return static_cast<std::uint8_t>(sign | roundMagnitude(a, 2, 15));
}

namespace {
// The value of a sign-exponent-mantissa byte with `mantissaBits` fraction bits and the given exponent bias.
float decode8(std::uint8_t bits, int mantissaBits, int bias)
{
    const int exponentField = (bits & 0x7f) >> mantissaBits;
    const int mantissa = bits & ((1 << mantissaBits) - 1);
    const float magnitude = exponentField == 0 ? std::ldexp(static_cast<float>(mantissa), 1 - bias - mantissaBits)
                                               : std::ldexp(static_cast<float>(mantissa + (1 << mantissaBits)),
                                                            exponentField - bias - mantissaBits);
    return bits & 0x80 ? -magnitude : magnitude;
}
} // namespace

float e4m3BitsToFloat(std::uint8_t bits)
{
    if ((bits & 0x7f) == 0x7f)
        return std::nanf("");
    return decode8(bits, 3, 7);
}

float e5m2BitsToFloat(std::uint8_t bits)
{
    if ((bits & 0x7c) == 0x7c) // exponent all ones
        return (bits & 0x03) ? std::nanf("") : (bits & 0x80 ? -INFINITY : INFINITY);
    return decode8(bits, 2, 15);
}

} // namespace costscope
