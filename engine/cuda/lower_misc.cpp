// SPDX-License-Identifier: MIT
// ConstantOfShape, Cast, Sum, BatchNorm (inference) and Lrn, with the CPU backend's semantics.
#include "cuda/cuda_lower.h"
#include "half.h"

#include <cstring>
#include <map>

namespace costscope::cuda {

namespace {
std::optional<CastType> castType(DType t)
{
    switch (t) {
    case DType::F32: return CastType::F32;
    case DType::F64: return CastType::F64;
    case DType::I8: return CastType::I8;
    case DType::U8: return CastType::U8;
    case DType::Bool: return CastType::Bool;
    case DType::I32: return CastType::I32;
    case DType::I64: return CastType::I64;
    case DType::F16:
        return CastType::F16;
    case DType::BF16:
        return CastType::BF16;
    case DType::F8E4M3:
        return CastType::F8E4M3;
    case DType::F8E5M2:
        return CastType::F8E5M2;
    default: return std::nullopt;
    }
}

// How a Cast with no ONNX target rounds an fp8 result that overflows (see lowerCast).
bool saturatesByDefault(DType to)
{
    return to != DType::F8E5M2;
}

// Whether the ONNX type `onnxTo` is exactly our `to` (the types the CUDA Cast kernel writes).
bool castsExactly(const std::string& onnxTo, DType to)
{
    static const std::map<std::string, DType> exact = {{"FLOAT", DType::F32},        {"DOUBLE", DType::F64},
                                                       {"INT8", DType::I8},          {"UINT8", DType::U8},
                                                       {"BOOL", DType::Bool},        {"INT32", DType::I32},
                                                       {"INT64", DType::I64},        {"FLOAT16", DType::F16},
                                                       {"BFLOAT16", DType::BF16},    {"FLOAT8E4M3FN", DType::F8E4M3},
                                                       {"FLOAT8E5M2", DType::F8E5M2}};
    auto it = exact.find(onnxTo);
    return it != exact.end() && it->second == to;
}

Result<bool> perChannel(const DeviceValue& p, std::int64_t c, const char* op)
{
    if (p.dtype != DType::F32 || static_cast<std::int64_t>(p.elements()) != c)
        return lowerError(std::string(op) + ": parameter " + valueString(p) + " must hold " + std::to_string(c)
                          + " F32 values");
    return true;
}
} // namespace

LowerResult lowerConstantOfShape(LowerContext& c)
{
    if (auto dims = c.intsFromAttrOrConstant("shape", 0); dims && *dims != c.out.dims)
        return lowerError("ConstantOfShape: shape " + dimsString(*dims) + " differs from the node's " + valueString(c.out));
    DType dtype = c.out.dtype;
    if (auto name = c.attrs().getString("dtype"); name && parseDType(*name) != dtype)
        return lowerError("ConstantOfShape: dtype '" + *name + "' differs from the node's " + valueString(c.out));
    const double value = c.attrs().doubleOr("value", 0.0);
    std::uint64_t pattern = 0;
    auto put = [&](auto v) { std::memcpy(&pattern, &v, sizeof(v)); };
    switch (dtype) {
    case DType::F32: put(static_cast<float>(value)); break;
    case DType::F64: put(value); break;
    case DType::F16:
        put(floatToHalf(static_cast<float>(value)));
        break;
    case DType::BF16:
        put(floatToBf16(static_cast<float>(value)));
        break;
    case DType::I64: put(static_cast<std::int64_t>(value)); break;
    case DType::I32: put(static_cast<std::int32_t>(value)); break;
    case DType::Bool:
    case DType::U8: put(static_cast<std::uint8_t>(value)); break;
    default: return lowerError("ConstantOfShape: " + std::string(dtypeName(dtype)) + " is not supported");
    }
    void* dst = c.out.ptr;
    const auto count = static_cast<std::int64_t>(c.out.elements());
    const int es = static_cast<int>(byteSize(dtype));
    return Launch([=](cudaStream_t s) { launchFill(dst, count, es, pattern, s); });
}

LowerResult lowerCast(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    const std::string toName = c.attrs().stringOr("to", std::string(dtypeName(c.out.dtype)));
    auto to = parseDType(toName);
    if (!to || *to != c.out.dtype || x.dims != c.out.dims)
        return lowerError("Cast: target '" + toName + "' does not match the node's " + valueString(c.out));
    auto from = castType(x.dtype), into = castType(*to);
    if (!from || !into)
        return lowerError("Cast: " + valueString(x) + " to " + toName + " is not supported on the CUDA backend");
    // Without an ONNX target (Casts the planner inserts), fp8 rounds as the CPU backend's ir/float_narrow.h does:
    // E4M3 saturates, E5M2 overflows to infinity. An ONNX Cast names its target (onnx_to) and chooses with
    // `saturate` (default 1); a target our types only stand in for (FNUZ, 4-bit, E8M0) is left to the host fallback,
    // whose CPU kernel rounds to the real type.
    bool saturate = saturatesByDefault(*to);
    if (auto onnxTo = c.attrs().getString("onnx_to")) {
        if (!castsExactly(*onnxTo, *to))
            return lowerError("Cast: to " + *onnxTo + " has no CUDA kernel");
        saturate = c.attrs().getBool("saturate").value_or(c.attrs().intOr("saturate", 1) != 0);
    }
    const void* src = x.ptr;
    void* dst = c.out.ptr;
    const auto count = static_cast<std::int64_t>(x.elements());
    const CastType f = *from, t = *into;
    return Launch([=](cudaStream_t s) { launchCast(src, f, dst, t, count, saturate, s); });
}

LowerResult lowerSum(LowerContext& c)
{
    // out = in0 broadcast, then out += in_i for the others.
    StridedCopyArgs first;
    std::vector<std::pair<const float*, BinaryArgs>> adds;
    for (std::size_t i = 0; i < c.in.size(); ++i) {
        const DeviceValue& t = *c.in[i];
        if (auto r = requireF32(t, "Sum operand"); !r)
            return r.error();
        auto strides = broadcastStrides(t.dims, c.out.dims);
        if (!strides || c.out.dims.size() > static_cast<std::size_t>(kMaxRank))
            return lowerError("Sum: " + valueString(t) + " does not broadcast to " + valueString(c.out));
        if (i == 0) {
            makeStridedCopy(c.out.dims, *strides, contiguousStrides(c.out.dims), 0, 0, 4, first);
            continue;
        }
        BinaryArgs a;
        a.rank = static_cast<int>(c.out.dims.size());
        const Dims outStrides = contiguousStrides(c.out.dims);
        for (std::size_t d = 0; d < c.out.dims.size(); ++d) {
            a.dims[d] = c.out.dims[d];
            a.aStrides[d] = outStrides[d];
            a.bStrides[d] = (*strides)[d];
        }
        a.count = static_cast<std::int64_t>(c.out.elements());
        a.sameShape = t.dims == c.out.dims;
        adds.emplace_back(static_cast<const float*>(t.ptr), a);
    }
    const void* src0 = c.in[0]->ptr;
    auto* out = static_cast<float*>(c.out.ptr);
    return Launch([=](cudaStream_t s) {
        launchStridedCopy(src0, out, first, s);
        for (const auto& [p, a] : adds)
            launchBinary(out, p, out, a, s);
    });
}

LowerResult lowerBatchNorm(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    if (auto r = requireF32(x, "BatchNorm input"); !r)
        return r.error();
    if (x.dims.size() < 2 || x.dims != c.out.dims || c.in.size() != 5)
        return lowerError("BatchNorm needs [N, C, ...] and scale, bias, mean, var; got " + valueString(x));
    const std::int64_t ch = x.dims[1];
    for (std::size_t i = 1; i < 5; ++i)
        if (auto r = perChannel(*c.in[i], ch, "BatchNorm"); !r)
            return r.error();
    const auto eps = static_cast<float>(c.attrs().doubleOr("eps", c.attrs().doubleOr("epsilon", 1e-5)));
    const auto* px = static_cast<const float*>(x.ptr);
    auto* py = static_cast<float*>(c.out.ptr);
    const float* p[4];
    for (std::size_t i = 0; i < 4; ++i)
        p[i] = static_cast<const float*>(c.in[i + 1]->ptr);
    const std::int64_t n = x.dims[0], inner = product(x.dims, 2);
    const float *scale = p[0], *bias = p[1], *mean = p[2], *var = p[3];
    return Launch([=](cudaStream_t s) { launchBatchNorm(px, py, n, ch, inner, scale, bias, mean, var, eps, s); });
}

LowerResult lowerLrn(LowerContext& c)
{
    const DeviceValue& x = *c.in[0];
    if (auto r = requireF32(x, "Lrn input"); !r)
        return r.error();
    if (x.dims.size() < 2 || x.dims != c.out.dims)
        return lowerError("Lrn needs [N, C, ...], got " + valueString(x));
    const auto size = static_cast<int>(c.attrs().intOr("size", 5));
    const auto alpha = static_cast<float>(c.attrs().doubleOr("alpha", 1e-4));
    const auto beta = static_cast<float>(c.attrs().doubleOr("beta", 0.75));
    const auto bias = static_cast<float>(c.attrs().doubleOr("bias", 1.0));
    if (size < 1)
        return lowerError("Lrn: size must be positive");
    const auto* px = static_cast<const float*>(x.ptr);
    auto* py = static_cast<float*>(c.out.ptr);
    const std::int64_t n = x.dims[0], ch = x.dims[1], inner = product(x.dims, 2);
    return Launch([=](cudaStream_t s) { launchLrn(px, py, n, ch, inner, size, alpha, beta, bias, s); });
}

} // namespace costscope::cuda
