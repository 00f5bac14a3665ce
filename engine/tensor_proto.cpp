// SPDX-License-Identifier: MIT
// A hand-rolled reader for the few TensorProto fields the engine needs. libonnx/protobuf are not used here on
// purpose: the engine must build on GPU machines that have neither, and TensorProto's wire format (varints and
// length-delimited fields) is small and frozen.
#include "tensor_proto.h"

#include "ir/narrow_types.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace costscope {

namespace {
// TensorProto field numbers.
enum Field { kDims = 1, kDataType = 2, kFloatData = 4, kInt32Data = 5, kStringData = 6, kInt64Data = 7,
             kName = 8, kRawData = 9, kDoubleData = 10, kUint64Data = 11, kDataLocation = 14 };

class Reader {
public:
    explicit Reader(const std::string& s) : m_p(s.data()), m_end(s.data() + s.size()) {}
    Reader(const char* b, const char* e) : m_p(b), m_end(e) {}
    bool atEnd() const { return m_p >= m_end; }
    bool varint(std::uint64_t& v)
    {
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p >= m_end)
                return false;
            const auto byte = static_cast<std::uint8_t>(*m_p++);
            v |= std::uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return true;
        }
        return false;
    }
    bool bytes(std::size_t n, const char*& out)
    {
        if (static_cast<std::size_t>(m_end - m_p) < n)
            return false;
        out = m_p;
        m_p += n;
        return true;
    }

private:
    const char* m_p;
    const char* m_end;
};

struct Parsed {
    std::vector<std::int64_t> dims;
    int dataType = 0;
    std::string raw;
    std::vector<float> floats;
    std::vector<double> doubles;
    std::vector<std::int64_t> ints; // int32_data, int64_data and uint64_data all land here
    bool external = false;
    bool strings = false;
};

// A packed or unpacked repeated scalar field.
template <class T, class Conv>
bool readRepeated(Reader& r, int wire, std::vector<T>& out, Conv conv, int fixedSize)
{
    auto one = [&](Reader& rr) {
        if (fixedSize == 0) {
            std::uint64_t v;
            if (!rr.varint(v))
                return false;
            out.push_back(conv(v, nullptr));
            return true;
        }
        const char* p;
        if (!rr.bytes(static_cast<std::size_t>(fixedSize), p))
            return false;
        out.push_back(conv(0, p));
        return true;
    };
    if (wire != 2)
        return one(r);
    std::uint64_t len;
    const char* p;
    if (!r.varint(len) || !r.bytes(len, p))
        return false;
    Reader inner(p, p + len);
    while (!inner.atEnd())
        if (!one(inner))
            return false;
    return true;
}

bool skip(Reader& r, int wire)
{
    std::uint64_t v;
    const char* p;
    switch (wire) {
    case 0: return r.varint(v);
    case 1: return r.bytes(8, p);
    case 2: return r.varint(v) && r.bytes(v, p);
    case 5: return r.bytes(4, p);
    default: return false;
    }
}

bool parseFields(Reader& r, Parsed& t)
{
    auto asInt = [](std::uint64_t v, const char*) { return static_cast<std::int64_t>(v); };
    auto asFloat = [](std::uint64_t, const char* p) { float f; std::memcpy(&f, p, 4); return f; };
    auto asDouble = [](std::uint64_t, const char* p) { double d; std::memcpy(&d, p, 8); return d; };
    while (!r.atEnd()) {
        std::uint64_t key;
        if (!r.varint(key))
            return false;
        const int field = static_cast<int>(key >> 3);
        const int wire = static_cast<int>(key & 7);
        bool ok = true;
        switch (field) {
        case kDims: ok = readRepeated(r, wire, t.dims, asInt, 0); break;
        case kDataType: {
            std::uint64_t v;
            ok = r.varint(v);
            t.dataType = static_cast<int>(v);
            break;
        }
        case kFloatData: ok = readRepeated(r, wire, t.floats, asFloat, 4); break;
        case kInt32Data:
        case kInt64Data:
        case kUint64Data: ok = readRepeated(r, wire, t.ints, asInt, 0); break;
        case kDoubleData: ok = readRepeated(r, wire, t.doubles, asDouble, 8); break;
        case kRawData: {
            std::uint64_t len;
            const char* p;
            ok = r.varint(len) && r.bytes(len, p);
            if (ok)
                t.raw.assign(p, len);
            break;
        }
        case kStringData: t.strings = true; ok = skip(r, wire); break;
        case kDataLocation: {
            std::uint64_t v;
            ok = r.varint(v);
            t.external = v == 1;
            break;
        }
        default: ok = skip(r, wire);
        }
        if (!ok)
            return false;
    }
    return true;
}

template <class T, class Src>
void store(HostTensor& t, const std::vector<Src>& src)
{
    auto dst = t.values<T>();
    for (std::size_t i = 0; i < dst.size() && i < src.size(); ++i)
        dst[i] = static_cast<T>(src[i]);
}

void fillFromTyped(HostTensor& t, const Parsed& p)
{
    switch (t.dtype()) {
    case DType::F32: store<float>(t, p.floats); break;
    case DType::F64: store<double>(t, p.doubles); break;
    case DType::I64: store<std::int64_t>(t, p.ints); break;
    case DType::I32: store<std::int32_t>(t, p.ints); break;
    case DType::I16: store<std::int16_t>(t, p.ints); break;
    case DType::I8: store<std::int8_t>(t, p.ints); break;
    case DType::U8:
    case DType::Bool: store<std::uint8_t>(t, p.ints); break;
    case DType::U32: store<std::uint32_t>(t, p.ints); break;
    case DType::F16:
    case DType::BF16: store<std::uint16_t>(t, p.ints); break; // int32_data holds the raw 16-bit patterns
    case DType::F8E4M3:
    case DType::F8E5M2:
        store<std::uint8_t>(t, p.ints);
        break; // and the raw 8-bit ones
    default: break;
    }
}

std::size_t typedCount(const Parsed& p)
{
    return p.floats.size() + p.doubles.size() + p.ints.size();
}

// A tensor of a type held by conversion (FLOAT8*, INT4, ...): its packed values in their carrier dtype.
Result<HostTensor> narrowTensor(NarrowType type, const Parsed& p, std::uint64_t elements, const std::string& shape)
{
    std::vector<std::uint8_t> packed(p.raw.begin(), p.raw.end());
    if (p.raw.empty()) // int32_data: one packed byte per entry
        for (std::int64_t v : p.ints)
            packed.push_back(static_cast<std::uint8_t>(v));
    auto values = unpackNarrow(type, packed.data(), packed.size(), elements);
    if (!values)
        return Diagnostic::error(std::to_string(packed.size()) + " bytes of data are too few for "
                                 + std::string(narrowTypeName(type)) + "[" + shape + "]");
    const auto bytes = carrierBytes(type, *values);
    return HostTensor::fromBytes(p.dims, carrierOf(type), bytes.data(), bytes.size());
}
} // namespace

std::optional<DType> dtypeFromOnnx(int onnxType)
{
    switch (onnxType) {
    case 1: return DType::F32;
    case 2: return DType::U8;
    case 3: return DType::I8;
    case 5: return DType::I16;
    case 6: return DType::I32;
    case 7: return DType::I64;
    case 9: return DType::Bool;
    case 10: return DType::F16;
    case 11: return DType::F64;
    case 12: return DType::U32;
    case 14: return DType::C64;
    case 15: return DType::C128;
    case 16: return DType::BF16;
    case 17:
        return DType::F8E4M3; // FLOAT8E4M3FN
    case 19:
        return DType::F8E5M2; // FLOAT8E5M2
    default: return std::nullopt;
    }
}

int onnxFromDType(DType t)
{
    for (int i = 1; i <= 19; ++i)
        if (dtypeFromOnnx(i) == t)
            return i;
    return 0;
}

Result<HostTensor> parseTensorProto(const std::string& bytes)
{
    Parsed p;
    Reader r(bytes);
    if (!parseFields(r, p))
        return Diagnostic::error("not a valid TensorProto (truncated or malformed protobuf)");
    if (p.strings || p.dataType == 8)
        return Diagnostic::error("string tensors are not supported");
    if (p.external)
        return Diagnostic::error("tensors with external data are not supported");
    auto dtype = dtypeFromOnnx(p.dataType);
    const auto narrow = narrowTypeFromOnnx(p.dataType);
    if (!dtype && !narrow)
        return Diagnostic::error("unsupported TensorProto data_type " + std::to_string(p.dataType));
    // The element count is checked against the data the file holds before anything is allocated: another message
    // read as a TensorProto (an ONNX optional or sequence value) gives absurd dims.
    std::uint64_t elements = 1;
    std::string shape;
    for (std::int64_t d : p.dims) {
        if (d < 0)
            return Diagnostic::error("negative dimension " + std::to_string(d));
        shape += (shape.empty() ? "" : ",") + std::to_string(d);
        if (d > 0 && elements > (std::uint64_t(1) << 62) / std::uint64_t(d))
            return Diagnostic::error("dims [" + shape + "] are too large: not a tensor (is it an ONNX sequence or "
                                     "optional value?)");
        elements *= std::uint64_t(d);
    }
    if (narrow && !dtype) // the 8-bit floats the IR has as dtypes keep their own bytes; the rest widen to a carrier
        return narrowTensor(*narrow, p, elements, shape);
    const std::uint64_t needed = elements * byteSize(*dtype);
    if (!p.raw.empty() || typedCount(p) == 0) {
        if (p.raw.size() != needed)
            return Diagnostic::error("raw_data holds " + std::to_string(p.raw.size()) + " bytes, "
                                     + std::string(dtypeName(*dtype)) + "[" + shape + "] needs "
                                     + std::to_string(needed));
        HostTensor t(p.dims, *dtype);
        std::memcpy(t.bytes(), p.raw.data(), p.raw.size());
        return t;
    }
    if (typedCount(p) != elements)
        return Diagnostic::error("TensorProto holds " + std::to_string(typedCount(p)) + " values, "
                                 + std::string(dtypeName(*dtype)) + "[" + shape + "] needs " + std::to_string(elements));
    HostTensor t(p.dims, *dtype);
    fillFromTyped(t, p);
    return t;
}

Result<HostTensor> readTensorProtoFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Diagnostic::error(path + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    auto t = parseTensorProto(ss.str());
    if (!t)
        return Diagnostic::error(path + ": " + t.error().message);
    return t;
}

namespace {
void putVarint(std::string& s, std::uint64_t v)
{
    while (v >= 0x80) {
        s.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    s.push_back(static_cast<char>(v));
}
} // namespace

std::string serializeTensorProto(const HostTensor& t, const std::string& name)
{
    std::string s;
    for (std::int64_t d : t.dims()) {
        putVarint(s, (kDims << 3) | 0);
        putVarint(s, static_cast<std::uint64_t>(d));
    }
    putVarint(s, (kDataType << 3) | 0);
    putVarint(s, static_cast<std::uint64_t>(onnxFromDType(t.dtype())));
    if (!name.empty()) {
        putVarint(s, (kName << 3) | 2);
        putVarint(s, name.size());
        s += name;
    }
    putVarint(s, (kRawData << 3) | 2);
    putVarint(s, t.byteSize());
    s.append(reinterpret_cast<const char*>(t.bytes()), t.byteSize());
    return s;
}

} // namespace costscope
