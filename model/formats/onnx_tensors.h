// SPDX-License-Identifier: MIT
#pragma once

#include "ir/attribute.h"
#include "ir/diagnostic.h"
#include "ir/graph.h"
#include "ir/shape.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace costscope::onnx_import {

// A constant tensor of the file (initializer or Constant node) with its values as raw little-endian bytes.
// The bytes are shared with the graph node made of it; external data stays in its memory-mapped file (a 1B model's
// gigabytes of weights are never copied on load).
struct ConstTensor {
    Shape shape;
    bool hasData = true;
    std::string missingFile; // the external data file whose values could not be read

    // Empty when the file keeps the values elsewhere (external data) and they were not read.
    const TensorBytes& bytes() const;
    void setBytes(std::vector<std::uint8_t> bytes);
    void setShared(TensorData bytes);
    // The bytes as the graph holds them (never null).
    TensorData shared() const;

private:
    TensorData m_bytes;
};

class ExternalData;

std::optional<DType> dtypeFromOnnx(std::int32_t elemType);
std::string onnxTypeName(std::int32_t elemType);
// The DType for a tensor's element type; the 8-, 4- and 2-bit types of ir/narrow_types.h map to their carrier dtype
// and any other type Costscope has no DType for to one of the same byte size (UINT16 to I16, UINT64 to I64, STRING
// to U8), with a warning naming the tensor.
DType dtypeForTensor(std::int32_t elemType, const std::string& tensor, Diagnostics* warnings);

// Reads a TensorProto's values from raw_data, the typed fields or, through `external`, a file beside the model; an
// error names the tensor when sizes disagree. Without `external`, external values are not read (a warning says so).
Result<ConstTensor> readTensor(const onnx::TensorProto& t, Diagnostics* warnings, ExternalData* external = nullptr);

// The value of an ONNX Constant node attribute (value, value_float(s), value_int(s)); string and sparse values give
// a tensor without data; nullopt for attributes that hold no value.
std::optional<Result<ConstTensor>> constantNodeValue(const onnx::AttributeProto& a, Diagnostics* warnings);

// Values of an integer or floating constant, converted; nullopt for other element types or missing data.
std::optional<std::vector<std::int64_t>> constInts(const ConstTensor& t);
std::optional<std::vector<double>> constDoubles(const ConstTensor& t);

// Shape stated by a value's type; nullopt when it has no tensor type or no shape. Missing dims become symbols
// named "unk_<tensor>_<axis>".
std::optional<Shape> shapeFromType(const onnx::TypeProto& type, const std::string& tensor, Diagnostics* warnings);

// The text with invalid UTF-8 sequences replaced by U+FFFD: ONNX (proto2) does not check its strings, and names end
// up in JSON files.
std::string validUtf8(const std::string& text);

// Any ONNX attribute as a typed attribute (tensors become their values, graphs their name).
AttrValue attrValue(const onnx::AttributeProto& a);

} // namespace costscope::onnx_import
