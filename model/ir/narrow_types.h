// SPDX-License-Identifier: MIT
#pragma once

#include "ir/dtype.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace costscope {

// ONNX's element types of fewer than 16 bits beyond INT8/UINT8: the 8-bit floats (OCP E4M3 and E5M2, and the
// "FNUZ" variants without negative zero or infinities), the 4-bit E2M1 float, the E8M0 power-of-two scale and the
// packed 4- and 2-bit integers. Costscope holds them "by conversion": each value is stored in a carrier dtype that
// represents every value of the format exactly (F16 for the small floats, F32 for E8M0, I8/U8 for the integers), and
// a Cast or QuantizeLinear to the format rounds onto the format's grid as ONNX defines it. The values are then
// exactly what a native implementation computes; only the bytes per element are the carrier's.
enum class NarrowType : std::uint8_t { F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, U4, I4, F4E2M1, F8E8M0, U2, I2 };

// From ONNX TensorProto data types 17 (FLOAT8E4M3FN) to 26 (INT2).
std::optional<NarrowType> narrowTypeFromOnnx(int onnxType);
// From the ONNX type name ("FLOAT8E4M3FN", ..., "INT2").
std::optional<NarrowType> parseNarrowType(std::string_view onnxName);
std::string_view narrowTypeName(NarrowType t);

DType carrierOf(NarrowType t);
int bitsOf(NarrowType t);
bool isNarrowInteger(NarrowType t);

// The value of one element's bit pattern (the low bitsOf(t) bits of `bits`).
double decodeNarrow(NarrowType t, std::uint32_t bits);

// `v` rounded onto the format's grid as ONNX's Cast does: floats to nearest, ties to even; out of range they
// saturate to the largest finite value when `saturate` (the default), else become infinity or NaN (whichever the
// format has); E8M0 rounds up to a power of two; integers truncate toward zero and wrap around.
double castToNarrow(NarrowType t, double v, bool saturate);

// The integer range of an integer format (QuantizeLinear saturates to it).
std::pair<double, double> narrowIntegerRange(NarrowType t);

// `count` values of packed storage (8-bit types one a byte; 4-bit two a byte and 2-bit four a byte, low bits
// first, as ONNX packs raw_data and int32_data), decoded; nullopt when `bytes` holds fewer than needed.
std::optional<std::vector<double>> unpackNarrow(NarrowType t, const std::uint8_t* bytes, std::size_t size,
                                                std::uint64_t count);

// Values of the format (decoded or cast) as the little-endian bytes of its carrier dtype.
std::vector<std::uint8_t> carrierBytes(NarrowType t, const std::vector<double>& values);

} // namespace costscope
