// SPDX-License-Identifier: MIT
// Hand-written because no C++ library of the build covers these formats: ml_dtypes (their reference) is a Python
// package, and the formats are small enough to describe by their bit fields. The rounding follows ONNX's Cast
// (onnx.reference, which uses ml_dtypes): round to nearest even, saturating by default.
#include "ir/narrow_types.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace costscope {

namespace {
struct FloatFormat {
    int exponentBits;
    int mantissaBits;
    int bias;
    double maxFinite;
    bool hasInfinity;       // E5M2 only: the others turn overflow into NaN (or, E2M1, always saturate)
    bool nanIsNegativeZero; // FNUZ: the pattern of -0 is the one NaN
    bool allOnesIsNan;      // E4M3FN: S.1111.111 is NaN
};

constexpr std::array<const char*, 10> kNames = {
    "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",
    "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0", "UINT2",          "INT2"};

std::optional<FloatFormat> floatFormat(NarrowType t)
{
    switch (t) {
    case NarrowType::F8E4M3FN:
        return FloatFormat{4, 3, 7, 448.0, false, false, true};
    case NarrowType::F8E4M3FNUZ:
        return FloatFormat{4, 3, 8, 240.0, false, true, false};
    case NarrowType::F8E5M2:
        return FloatFormat{5, 2, 15, 57344.0, true, false, false};
    case NarrowType::F8E5M2FNUZ:
        return FloatFormat{5, 2, 16, 57344.0, false, true, false};
    case NarrowType::F4E2M1:
        return FloatFormat{2, 1, 1, 6.0, false, false, false};
    default:
        return std::nullopt;
    }
}

double decodeFloat(const FloatFormat& f, std::uint32_t bits)
{
    const int width = 1 + f.exponentBits + f.mantissaBits;
    const bool negative = (bits >> (width - 1)) & 1u;
    const std::uint32_t exponent = (bits >> f.mantissaBits) & ((1u << f.exponentBits) - 1);
    const std::uint32_t mantissa = bits & ((1u << f.mantissaBits) - 1);
    const std::uint32_t maxExponent = (1u << f.exponentBits) - 1;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (f.nanIsNegativeZero && negative && exponent == 0 && mantissa == 0)
        return nan;
    if (f.allOnesIsNan && exponent == maxExponent && mantissa == (1u << f.mantissaBits) - 1)
        return nan;
    if (f.hasInfinity && exponent == maxExponent)
        return mantissa ? nan : (negative ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
    const double magnitude =
        exponent == 0 ? std::ldexp(double(mantissa), 1 - f.bias - f.mantissaBits)
                      : std::ldexp(double(mantissa + (1u << f.mantissaBits)), int(exponent) - f.bias - f.mantissaBits);
    return negative ? -magnitude : magnitude;
}

double castToFloat(NarrowType t, const FloatFormat& f, double v, bool saturate)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (std::isnan(v))
        return t == NarrowType::F4E2M1 ? -0.0 : nan; // E2M1 has no NaN; ml_dtypes gives -0
    const double magnitude = std::fabs(v);
    double rounded = magnitude;
    if (std::isfinite(magnitude)) {
        // The grid's spacing where v lies: the normal binade's, or the subnormals' below the smallest normal.
        const int minExponent = 1 - f.bias;
        int exponent = std::ilogb(magnitude);
        if (magnitude == 0.0 || exponent < minExponent)
            exponent = minExponent;
        const double spacing = std::ldexp(1.0, exponent - f.mantissaBits);
        rounded = std::nearbyint(magnitude / spacing) * spacing; // ties to even under the default rounding mode
    }
    if (rounded > f.maxFinite) {
        if (saturate || t == NarrowType::F4E2M1)
            rounded = f.maxFinite;
        else
            return f.hasInfinity ? std::copysign(std::numeric_limits<double>::infinity(), v) : nan;
    }
    if (f.nanIsNegativeZero && rounded == 0.0)
        return 0.0;
    return std::copysign(rounded, v);
}

// ONNX's to_float8e8m0 on float32 bits: the exponent field, rounded up when any mantissa bit is set (the default
// round_mode "up"), NaN and infinity to the NaN pattern; the sign is ignored.
double castToE8M0(double v, bool saturate)
{
    const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
    std::uint32_t exponent = (bits >> 23) & 0xFF;
    if (exponent == 0xFF)
        return std::numeric_limits<double>::quiet_NaN();
    if ((bits & 0x7FFFFF) != 0 && !(saturate && exponent == 0xFE))
        ++exponent;
    return decodeNarrow(NarrowType::F8E8M0, exponent);
}
// The IEEE half pattern of a value that F16 represents exactly (every value of the 8- and 4-bit floats is).
std::uint16_t exactHalfBits(double v)
{
    const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    if (std::isnan(v))
        return 0x7E00;
    const double magnitude = std::fabs(v);
    if (std::isinf(magnitude))
        return sign | 0x7C00;
    int e = 0;
    const double m = std::frexp(magnitude, &e); // magnitude = m * 2^e, m in [0.5, 1)
    const int biased = e + 14;
    if (magnitude == 0.0 || biased < 1) // zero or subnormal: a multiple of 2^-24
        return sign | static_cast<std::uint16_t>(std::ldexp(magnitude, 24));
    return sign | static_cast<std::uint16_t>(biased << 10) | static_cast<std::uint16_t>((2 * m - 1) * 1024);
}
} // namespace

std::optional<NarrowType> narrowTypeFromOnnx(int onnxType)
{
    if (onnxType < 17 || onnxType > 26)
        return std::nullopt;
    return static_cast<NarrowType>(onnxType - 17);
}

std::optional<NarrowType> parseNarrowType(std::string_view onnxName)
{
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (onnxName == kNames[i])
            return static_cast<NarrowType>(i);
    return std::nullopt;
}

std::string_view narrowTypeName(NarrowType t)
{
    return kNames[static_cast<std::size_t>(t)];
}

DType carrierOf(NarrowType t)
{
    switch (t) {
    case NarrowType::U4:
    case NarrowType::U2:
        return DType::U8;
    case NarrowType::I4:
    case NarrowType::I2:
        return DType::I8;
    case NarrowType::F8E8M0:
        return DType::F32; // 2^-127 to 2^127: beyond F16's range
    default:
        return DType::F16; // every 8- and 4-bit float value is exact in F16
    }
}

int bitsOf(NarrowType t)
{
    switch (t) {
    case NarrowType::U4:
    case NarrowType::I4:
    case NarrowType::F4E2M1:
        return 4;
    case NarrowType::U2:
    case NarrowType::I2:
        return 2;
    default:
        return 8;
    }
}

bool isNarrowInteger(NarrowType t)
{
    return t == NarrowType::U4 || t == NarrowType::I4 || t == NarrowType::U2 || t == NarrowType::I2;
}

std::pair<double, double> narrowIntegerRange(NarrowType t)
{
    const int bits = bitsOf(t);
    if (t == NarrowType::I4 || t == NarrowType::I2)
        return {-std::ldexp(1.0, bits - 1), std::ldexp(1.0, bits - 1) - 1};
    return {0.0, std::ldexp(1.0, bits) - 1};
}

double decodeNarrow(NarrowType t, std::uint32_t bits)
{
    bits &= (1u << bitsOf(t)) - 1;
    if (auto f = floatFormat(t))
        return decodeFloat(*f, bits);
    if (t == NarrowType::F8E8M0)
        return bits == 0xFF ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, int(bits) - 127);
    if (t == NarrowType::I4 || t == NarrowType::I2) { // sign-extend
        const std::uint32_t sign = 1u << (bitsOf(t) - 1);
        return double(std::int32_t(bits ^ sign) - std::int32_t(sign));
    }
    return double(bits);
}

double castToNarrow(NarrowType t, double v, bool saturate)
{
    if (auto f = floatFormat(t))
        return castToFloat(t, *f, v, saturate);
    if (t == NarrowType::F8E8M0)
        return castToE8M0(v, saturate);
    // Integers: truncation as a C cast, then the low bits (ml_dtypes' astype wraps).
    const double truncated = std::isfinite(v) ? std::trunc(v) : 0.0;
    const auto wide = static_cast<std::int64_t>(std::fmod(truncated, 65536.0));
    return decodeNarrow(t, static_cast<std::uint32_t>(wide) & ((1u << bitsOf(t)) - 1));
}

std::optional<std::vector<double>> unpackNarrow(NarrowType t, const std::uint8_t* bytes, std::size_t size,
                                                std::uint64_t count)
{
    const int bits = bitsOf(t);
    const std::uint64_t perByte = 8u / static_cast<std::uint64_t>(bits);
    if (size < (count + perByte - 1) / perByte)
        return std::nullopt;
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(count));
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint32_t byte = bytes[i / perByte];
        out.push_back(decodeNarrow(t, byte >> ((i % perByte) * static_cast<std::uint64_t>(bits))));
    }
    return out;
}

std::vector<std::uint8_t> carrierBytes(NarrowType t, const std::vector<double>& values)
{
    const DType carrier = carrierOf(t);
    std::vector<std::uint8_t> out(values.size() * byteSize(carrier));
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint8_t* p = out.data() + i * byteSize(carrier);
        if (carrier == DType::F16) {
            const std::uint16_t h = exactHalfBits(values[i]);
            p[0] = static_cast<std::uint8_t>(h & 0xFF);
            p[1] = static_cast<std::uint8_t>(h >> 8);
        } else if (carrier == DType::F32) {
            const auto f = std::bit_cast<std::uint32_t>(static_cast<float>(values[i]));
            for (int b = 0; b < 4; ++b)
                p[b] = static_cast<std::uint8_t>(f >> (8 * b));
        } else { // I8 or U8: the integer's low byte
            p[0] = static_cast<std::uint8_t>(static_cast<std::int32_t>(values[i]) & 0xFF);
        }
    }
    return out;
}

} // namespace costscope
