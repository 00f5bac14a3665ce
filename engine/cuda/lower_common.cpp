// SPDX-License-Identifier: MIT
#include "cuda/cuda_lower.h"

#include <algorithm>
#include <cstring>

namespace costscope::cuda {

bool isAliasOp(OpKind kind)
{
    switch (kind) {
    case OpKind::Reshape:
    case OpKind::Flatten:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Identity:
    case OpKind::Dropout: return true;
    default: return false;
    }
}

LowerFn findLowering(OpKind kind)
{
    switch (kind) {
    case OpKind::Binary: return lowerBinary;
    case OpKind::Activation: return lowerActivation;
    case OpKind::MatMul: return lowerMatMul;
    case OpKind::FusedMatMulBiasAct: return lowerFusedMatMulBiasAct;
    case OpKind::Gemm: return lowerGemm;
    case OpKind::Transpose: return lowerTranspose;
    case OpKind::Slice: return lowerSlice;
    case OpKind::Narrow: return lowerNarrow;
    case OpKind::Concat: return lowerConcat;
    case OpKind::Expand: return lowerExpand;
    case OpKind::Gather: return lowerGather;
    case OpKind::Reduce: return lowerReduce;
    case OpKind::Softmax: return lowerSoftmax;
    case OpKind::LogSoftmax: return lowerLogSoftmax;
    case OpKind::LayerNorm: return lowerLayerNorm;
    case OpKind::RmsNorm: return lowerRmsNorm;
    case OpKind::GlobalPool: return lowerGlobalPool;
    case OpKind::Attention: return lowerAttention;
    case OpKind::Conv: return lowerConv;
    case OpKind::Pool: return lowerPool;
    case OpKind::Fft: return lowerFft;
    case OpKind::WelchPeaks: return lowerWelchPeaks;
    case OpKind::ConstantOfShape: return lowerConstantOfShape;
    case OpKind::Cast: return lowerCast;
    case OpKind::Sum: return lowerSum;
    case OpKind::BatchNorm: return lowerBatchNorm;
    case OpKind::Lrn: return lowerLrn;
    case OpKind::Compare: return lowerCompare;
    case OpKind::Where: return lowerWhere;
    case OpKind::Clip: return lowerClip;
    case OpKind::GatherElements: return lowerGatherElements;
    case OpKind::Unknown:
        return lowerOnnxByName;
    case OpKind::Pad: return lowerPad;
    case OpKind::Tile: return lowerTile;
    case OpKind::ConvTranspose: return lowerConvTranspose;
    case OpKind::InstanceNorm: return lowerInstanceNorm;
    default: return nullptr;
    }
}

bool lowersOnnxByName(std::string_view opType)
{
    return opType == "GatherND";
}

LowerResult lowerOnnxByName(LowerContext& c)
{
    if (lowersOnnxByName(c.node.op.name))
        return lowerGatherND(c);
    return lowerError("the CUDA backend cannot run op " + c.node.op.label());
}

std::optional<Dims> LowerContext::intsFromAttrOrConstant(const std::string& key, std::size_t index) const
{
    if (const AttrValue* v = attrs().find(key)) {
        if (auto list = attrs().getInts(key))
            return list;
        if (auto one = attrs().getInt(key))
            return Dims{*one};
        if (std::holds_alternative<std::monostate>(*v))
            return std::nullopt;
    }
    if (index >= inPos.size())
        return std::nullopt;
    const Node& src = plan.graph().nodes[inPos[index]];
    const DeviceValue& v = *in[index];
    if (!src.data || (v.dtype != DType::I64 && v.dtype != DType::I32) || src.data->size() != v.bytes)
        return std::nullopt;
    Dims out;
    for (std::uint64_t i = 0; i < v.elements(); ++i) {
        if (v.dtype == DType::I64) {
            std::int64_t x = 0;
            std::memcpy(&x, src.data->data() + i * 8, 8);
            out.push_back(x);
        } else {
            std::int32_t x = 0;
            std::memcpy(&x, src.data->data() + i * 4, 4);
            out.push_back(x);
        }
    }
    return out;
}

std::optional<Dims> broadcastStrides(const Dims& in, const Dims& out)
{
    if (in.size() > out.size())
        return std::nullopt;
    const Dims inStrides = contiguousStrides(in);
    Dims s(out.size(), 0);
    const std::size_t shift = out.size() - in.size();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == out[i + shift])
            s[i + shift] = in[i] == 1 ? 0 : inStrides[i];
        else if (in[i] != 1)
            return std::nullopt;
    }
    return s;
}

std::string valueString(const DeviceValue& v)
{
    return Shape::of(v.dims, v.dtype).toString();
}

Result<bool> requireF32(const DeviceValue& v, const char* what)
{
    if (v.dtype != DType::F32)
        return lowerError(std::string(what) + " must be F32 on the CUDA backend, got " + valueString(v));
    return true;
}

std::optional<ElemType> elemTypeOf(DType t)
{
    switch (t) {
    case DType::F32: return ElemType::F32;
    case DType::F64: return ElemType::F64;
    case DType::I64: return ElemType::I64;
    case DType::I32: return ElemType::I32;
    case DType::U8:
    case DType::Bool: return ElemType::U8;
    default: return std::nullopt;
    }
}

std::optional<ElemType> programTypeOf(DType t)
{
    if (t == DType::F16)
        return ElemType::F16;
    if (t == DType::BF16)
        return ElemType::BF16;
    return elemTypeOf(t);
}

bool makeBroadcastArgs(const Dims& a, const Dims& b, const Dims& out, BinaryArgs& args)
{
    auto as = broadcastStrides(a, out), bs = broadcastStrides(b, out);
    if (!as || !bs || out.size() > static_cast<std::size_t>(kMaxRank))
        return false;
    args.rank = static_cast<int>(out.size());
    for (std::size_t d = 0; d < out.size(); ++d) {
        args.dims[d] = out[d];
        args.aStrides[d] = (*as)[d];
        args.bStrides[d] = (*bs)[d];
    }
    args.count = product(out);
    args.sameShape = a == out && b == out;
    return true;
}

bool makeStridedCopy(const Dims& dims, const Dims& srcStrides, const Dims& dstStrides, std::int64_t srcBase,
                     std::int64_t dstBase, int elementSize, StridedCopyArgs& out)
{
    if (dims.size() > static_cast<std::size_t>(kMaxRank))
        return false;
    out.rank = static_cast<int>(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
        out.dims[d] = dims[d];
        out.srcStrides[d] = srcStrides[d];
        out.dstStrides[d] = dstStrides[d];
    }
    out.srcBase = srcBase;
    out.dstBase = dstBase;
    out.elementSize = elementSize;
    return true;
}

} // namespace costscope::cuda
