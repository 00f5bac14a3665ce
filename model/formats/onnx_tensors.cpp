// SPDX-License-Identifier: MIT
#include "formats/onnx_tensors.h"

#include "formats/onnx_external_data.h"
#include "ir/narrow_types.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

namespace costscope::onnx_import {

// Node::data is little-endian; copying host values verbatim is only right on a little-endian host.
static_assert(std::endian::native == std::endian::little, "ONNX tensor decoding assumes a little-endian host");

namespace {
using TP = onnx::TensorProto;

template <class T>
void appendValue(std::vector<std::uint8_t>& out, T v, std::size_t width)
{
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out.insert(out.end(), p, p + width);
}

template <class Field>
std::vector<std::uint8_t> packField(const Field& values, std::size_t width)
{
    std::vector<std::uint8_t> out;
    out.reserve(static_cast<std::size_t>(values.size()) * width);
    for (auto v : values)
        appendValue(out, v, width);
    return out;
}

std::vector<std::uint8_t> typedFieldBytes(const TP& t, std::size_t width)
{
    switch (t.data_type()) {
    case TP::FLOAT:
    case TP::COMPLEX64: return packField(t.float_data(), 4);
    case TP::DOUBLE:
    case TP::COMPLEX128: return packField(t.double_data(), 8);
    case TP::INT64: return packField(t.int64_data(), 8);
    case TP::UINT32:
    case TP::UINT64: return packField(t.uint64_data(), width);
    default: return packField(t.int32_data(), width); // narrower ints, bool, float16 bit patterns
    }
}

template <class T>
std::vector<T> decode(const ConstTensor& t, std::size_t width, auto convert)
{
    std::vector<T> out;
    const TensorBytes& bytes = t.bytes();
    const std::size_t n = width ? bytes.size() / width : 0;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(convert(bytes.data() + i * width));
    return out;
}

template <class Raw>
Raw load(const std::uint8_t* p)
{
    Raw v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
ConstTensor listConstant(DType dtype, const std::vector<std::uint8_t>& bytes, std::size_t count, bool scalar)
{
    ConstTensor c;
    c.shape.dtype = dtype;
    if (!scalar)
        c.shape.dims.push_back(Dim::fixed(static_cast<std::int64_t>(count)));
    c.setBytes(bytes);
    return c;
}

template <class T, class Field>
std::vector<std::uint8_t> bytesOf(const Field& values)
{
    std::vector<std::uint8_t> out(static_cast<std::size_t>(values.size()) * sizeof(T));
    std::size_t at = 0;
    for (auto v : values) {
        const T typed = static_cast<T>(v);
        std::memcpy(out.data() + at, &typed, sizeof(T));
        at += sizeof(T);
    }
    return out;
}
} // namespace

const TensorBytes& ConstTensor::bytes() const
{
    static const TensorBytes none;
    return m_bytes ? *m_bytes : none;
}

void ConstTensor::setBytes(std::vector<std::uint8_t> bytes)
{
    m_bytes = makeTensorData(std::move(bytes));
}

void ConstTensor::setShared(TensorData bytes)
{
    m_bytes = std::move(bytes);
}

TensorData ConstTensor::shared() const
{
    return m_bytes ? m_bytes : std::make_shared<const TensorBytes>();
}

std::optional<DType> dtypeFromOnnx(std::int32_t elemType)
{
    // ONNX 1.14's 8-bit floats, by their TensorProto numbers (newer than the libonnx headers this builds with).
    if (elemType == 17)
        return DType::F8E4M3; // FLOAT8E4M3FN
    if (elemType == 19)
        return DType::F8E5M2; // FLOAT8E5M2
    switch (elemType) {
    case TP::FLOAT: return DType::F32;
    case TP::UINT8: return DType::U8;
    case TP::INT8: return DType::I8;
    case TP::INT16: return DType::I16;
    case TP::INT32: return DType::I32;
    case TP::INT64: return DType::I64;
    case TP::BOOL: return DType::Bool;
    case TP::FLOAT16: return DType::F16;
    case TP::DOUBLE: return DType::F64;
    case TP::UINT32: return DType::U32;
    case TP::COMPLEX64: return DType::C64;
    case TP::COMPLEX128: return DType::C128;
    case TP::BFLOAT16: return DType::BF16;
    default: return std::nullopt;
    }
}

std::string onnxTypeName(std::int32_t elemType)
{
    if (TP::DataType_IsValid(elemType))
        return TP::DataType_Name(static_cast<TP::DataType>(elemType));
    // Types newer than the libonnx this was built with (ONNX 1.14 to 1.20), by their TensorProto numbers.
    static const char* const newer[] = {"FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",
                                        "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0", "UINT2",          "INT2"};
    if (elemType >= 17 && elemType < 17 + static_cast<std::int32_t>(std::size(newer)))
        return newer[elemType - 17];
    return "type " + std::to_string(elemType);
}

DType dtypeForTensor(std::int32_t elemType, const std::string& tensor, Diagnostics* warnings)
{
    if (auto d = dtypeFromOnnx(elemType))
        return *d;
    if (auto narrow = narrowTypeFromOnnx(elemType)) {
        const DType carrier = carrierOf(*narrow);
        if (warnings)
            warnings->push_back(Diagnostic::warning("tensor '" + tensor + "' has element type " + onnxTypeName(elemType)
                                                    + ", held by conversion as " + std::string(dtypeName(carrier))
                                                    + " (which represents each of its values exactly)"));
        return carrier;
    }
    DType stand = DType::U8;
    if (elemType == TP::UINT16)
        stand = DType::I16;
    else if (elemType == TP::UINT64)
        stand = DType::I64;
    if (warnings)
        warnings->push_back(Diagnostic::warning("tensor '" + tensor + "' has element type " + onnxTypeName(elemType)
                                                + ", which Costscope has no type for; shown as "
                                                + std::string(dtypeName(stand))));
    return stand;
}

Result<ConstTensor> readTensor(const onnx::TensorProto& t, Diagnostics* warnings, ExternalData* external)
{
    ConstTensor c;
    c.shape.dtype = dtypeForTensor(t.data_type(), t.name(), warnings);
    for (auto d : t.dims()) {
        if (d < 0)
            return Diagnostic::error("tensor '" + t.name() + "' has a negative dim (" + std::to_string(d) + ")");
        c.shape.dims.push_back(Dim::fixed(d));
    }
    if (t.data_type() == TP::STRING) {
        c.hasData = false;
        return c;
    }
    if (auto narrow = narrowTypeFromOnnx(t.data_type()); narrow && t.data_location() != TP::EXTERNAL) {
        // Packed values (two 4-bit or four 2-bit ones a byte) in raw_data, or one packed byte per int32_data entry.
        std::vector<std::uint8_t> packed(t.raw_data().begin(), t.raw_data().end());
        if (!t.has_raw_data())
            packed = packField(t.int32_data(), 1);
        const auto count = c.shape.elements();
        auto values = count ? unpackNarrow(*narrow, packed.data(), packed.size(), *count) : std::nullopt;
        if (!values)
            return Diagnostic::error("tensor '" + t.name() + "' " + c.shape.toString() + " of "
                                     + onnxTypeName(t.data_type()) + " holds too few bytes of data ("
                                     + std::to_string(packed.size()) + ")");
        c.setBytes(carrierBytes(*narrow, *values));
        return c;
    }
    if (t.data_location() == TP::EXTERNAL && !external) {
        c.hasData = false;
        c.missingFile = externalLocation(t);
        if (warnings)
            warnings->push_back(Diagnostic::warning("tensor '" + t.name() + "' keeps its values in '" + c.missingFile
                                                    + "', which is not read: the model was read without its folder"));
        return c;
    }
    if (t.data_location() == TP::EXTERNAL) {
        if (auto e = external->read(t, c, warnings))
            return *e;
        if (!c.hasData)
            return c;
    } else {
        c.setBytes(t.has_raw_data() ? std::vector<std::uint8_t>(t.raw_data().begin(), t.raw_data().end())
                                    : typedFieldBytes(t, byteSize(c.shape.dtype)));
    }
    auto expected = c.shape.bytes();
    if (!expected)
        return Diagnostic::error("tensor '" + t.name() + "' is too large: " + c.shape.toString());
    if (c.bytes().size() != *expected)
        return Diagnostic::error("tensor '" + t.name() + "' " + c.shape.toString() + " should hold "
                                 + std::to_string(*expected) + " bytes of data, has "
                                 + std::to_string(c.bytes().size()));
    return c;
}

std::optional<Result<ConstTensor>> constantNodeValue(const onnx::AttributeProto& a, Diagnostics* warnings)
{
    const std::string& n = a.name();
    if (n == "value")
        return readTensor(a.t(), warnings);
    if (n == "value_float")
        return listConstant(DType::F32, bytesOf<float>(std::vector<float>{a.f()}), 1, true);
    if (n == "value_floats")
        return listConstant(DType::F32, bytesOf<float>(a.floats()), static_cast<std::size_t>(a.floats_size()), false);
    if (n == "value_int")
        return listConstant(DType::I64, bytesOf<std::int64_t>(std::vector<std::int64_t>{a.i()}), 1, true);
    if (n == "value_ints")
        return listConstant(DType::I64, bytesOf<std::int64_t>(a.ints()), static_cast<std::size_t>(a.ints_size()),
                            false);
    if (n == "value_string" || n == "value_strings" || n == "sparse_value") {
        ConstTensor c;
        c.shape.dtype = DType::U8;
        c.hasData = false;
        return c;
    }
    return std::nullopt;
}

std::optional<std::vector<std::int64_t>> constInts(const ConstTensor& t)
{
    if (!t.hasData)
        return std::nullopt;
    switch (t.shape.dtype) {
    case DType::I64: return decode<std::int64_t>(t, 8, [](auto p) { return load<std::int64_t>(p); });
    case DType::I32: return decode<std::int64_t>(t, 4, [](auto p) { return std::int64_t{load<std::int32_t>(p)}; });
    case DType::U32: return decode<std::int64_t>(t, 4, [](auto p) { return std::int64_t{load<std::uint32_t>(p)}; });
    case DType::I16: return decode<std::int64_t>(t, 2, [](auto p) { return std::int64_t{load<std::int16_t>(p)}; });
    case DType::I8: return decode<std::int64_t>(t, 1, [](auto p) { return std::int64_t{load<std::int8_t>(p)}; });
    case DType::U8:
    case DType::Bool: return decode<std::int64_t>(t, 1, [](auto p) { return std::int64_t{*p}; });
    default: return std::nullopt;
    }
}

std::optional<std::vector<double>> constDoubles(const ConstTensor& t)
{
    if (!t.hasData)
        return std::nullopt;
    if (t.shape.dtype == DType::F32)
        return decode<double>(t, 4, [](auto p) { return double{load<float>(p)}; });
    if (t.shape.dtype == DType::F64)
        return decode<double>(t, 8, [](auto p) { return load<double>(p); });
    auto ints = constInts(t);
    if (!ints)
        return std::nullopt; // F16/BF16 clip bounds and pad values are rare enough to leave as inputs
    return std::vector<double>(ints->begin(), ints->end());
}

std::optional<Shape> shapeFromType(const onnx::TypeProto& type, const std::string& tensor, Diagnostics* warnings)
{
    if (!type.has_tensor_type())
        return std::nullopt;
    const auto& tt = type.tensor_type();
    if (!tt.has_shape())
        return std::nullopt;
    Shape s;
    s.dtype = dtypeForTensor(tt.elem_type(), tensor, warnings);
    for (int axis = 0; axis < tt.shape().dim_size(); ++axis) {
        const auto& d = tt.shape().dim(axis);
        if (d.has_dim_value() && d.dim_value() >= 0)
            s.dims.push_back(Dim::fixed(d.dim_value()));
        else if (d.has_dim_param() && !d.dim_param().empty())
            s.dims.push_back(Dim::named(d.dim_param()));
        else
            s.dims.push_back(Dim::named("unk_" + tensor + "_" + std::to_string(axis)));
    }
    return s;
}

std::string validUtf8(const std::string& text)
{
    if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
        return text;
    const std::string quoted = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return nlohmann::json::parse(quoted).get<std::string>();
}

AttrValue attrValue(const onnx::AttributeProto& a)
{
    using A = onnx::AttributeProto;
    switch (a.type()) {
    case A::FLOAT: return double{a.f()};
    case A::INT: return std::int64_t{a.i()};
    case A::STRING: return validUtf8(a.s());
    case A::INTS: return std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
    case A::FLOATS: return std::vector<double>(a.floats().begin(), a.floats().end());
    case A::STRINGS: {
        std::vector<std::string> out;
        for (const auto& str : a.strings())
            out.push_back(validUtf8(str));
        return out;
    }
    case A::TENSOR: {
        auto t = readTensor(a.t(), nullptr);
        if (t)
            if (auto d = constDoubles(*t))
                return *d;
        return std::string("<tensor>");
    }
    case A::GRAPH: return std::string("<graph " + validUtf8(a.g().name()) + ">");
    default: return std::string("<" + A::AttributeType_Name(a.type()) + ">");
    }
}

} // namespace costscope::onnx_import
