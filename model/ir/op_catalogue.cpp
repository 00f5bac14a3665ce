// SPDX-License-Identifier: MIT
#include "ir/op.h"

#include <algorithm>

namespace costscope {

namespace {
using C = OpClass;
using F = PayloadForm;

const std::vector<OpInfo>& table()
{
    static const std::vector<OpInfo> t = {
        {OpKind::Input, "Input", C::Leaf, 0, 0, F::Struct, false, true},
        {OpKind::Param, "Param", C::Leaf, 0, 0, F::Struct, false, true},
        {OpKind::Constant, "Constant", C::Leaf, 0, 0, F::Struct, false, true},
        {OpKind::MatMul, "MatMul", C::MatMul, 2, 2, F::Unit, false, false},
        {OpKind::FusedMatMulBiasAct, "FusedMatMulBiasAct", C::MatMul, 2, 3, F::Struct, false, false},
        {OpKind::Attention, "Attention", C::Attention, 3, 4, F::Struct, false, false},
        {OpKind::Fft, "Fft", C::Spectral, 1, 1, F::Struct, false, false},
        {OpKind::LogMel, "LogMel", C::Spectral, 1, 2, F::Unit, true, false},
        {OpKind::WelchPeaks, "WelchPeaks", C::Spectral, 1, 1, F::Struct, true, false},
        {OpKind::Custom, "Custom", C::Custom, 0, -1, F::Struct, true, false},
        {OpKind::Binary, "Binary", C::ElementWise, 2, 2, F::Scalar, false, false},
        {OpKind::Activation, "Activation", C::ElementWise, 1, 1, F::Scalar, false, false},
        {OpKind::Compare, "Compare", C::ElementWise, 2, 2, F::Scalar, false, false},
        {OpKind::Cast, "Cast", C::ElementWise, 1, 1, F::Struct, false, false},
        {OpKind::Where, "Where", C::ElementWise, 3, 3, F::Unit, false, false},
        {OpKind::Reshape, "Reshape", C::Layout, 1, 2, F::Struct, false, true},
        {OpKind::Transpose, "Transpose", C::Layout, 1, 1, F::Struct, false, true},
        {OpKind::Narrow, "Narrow", C::Layout, 1, 1, F::Struct, false, true},
        {OpKind::Slice, "Slice", C::Layout, 1, 5, F::Struct, false, false},
        {OpKind::Concat, "Concat", C::Layout, 1, -1, F::Struct, false, false},
        {OpKind::Expand, "Expand", C::Layout, 1, 2, F::Struct, false, false},
        {OpKind::Gather, "Gather", C::Gather, 2, 2, F::Struct, false, false},
        {OpKind::Reduce, "Reduce", C::Reduce, 1, 2, F::Struct, false, false},
        {OpKind::Softmax, "Softmax", C::Softmax, 1, 1, F::Struct, false, false},
        {OpKind::LayerNorm, "LayerNorm", C::Norm, 1, 3, F::Struct, false, false},
        {OpKind::RmsNorm, "RmsNorm", C::Norm, 1, 2, F::Struct, false, false},
        {OpKind::Conv, "Conv", C::Conv, 2, 3, F::Struct, false, false},
        {OpKind::Pool, "Pool", C::Pool, 1, 1, F::Struct, false, false},
        {OpKind::Gemm, "Gemm", C::MatMul, 2, 3, F::Struct, false, false},
        {OpKind::BatchNorm, "BatchNorm", C::Norm, 5, 5, F::Struct, false, false},
        {OpKind::Lrn, "Lrn", C::Norm, 1, 1, F::Struct, false, false},
        {OpKind::GlobalPool, "GlobalPool", C::Pool, 1, 1, F::Struct, false, false},
        {OpKind::Dropout, "Dropout", C::Layout, 1, 3, F::Struct, false, false},
        {OpKind::Sum, "Sum", C::ElementWise, 1, -1, F::Struct, false, false},
        {OpKind::Unsqueeze, "Unsqueeze", C::Layout, 1, 2, F::Struct, false, false},
        {OpKind::Squeeze, "Squeeze", C::Layout, 1, 2, F::Struct, false, false},
        {OpKind::Flatten, "Flatten", C::Layout, 1, 1, F::Struct, false, false},
        {OpKind::ConstantOfShape, "ConstantOfShape", C::Layout, 1, 1, F::Struct, false, false},
        {OpKind::Pad, "Pad", C::Layout, 1, 4, F::Struct, false, false},
        {OpKind::Clip, "Clip", C::ElementWise, 1, 3, F::Struct, false, false},
        {OpKind::Tile, "Tile", C::Layout, 2, 2, F::Struct, false, false},
        {OpKind::ConvTranspose, "ConvTranspose", C::Conv, 2, 3, F::Struct, false, false},
        {OpKind::InstanceNorm, "InstanceNorm", C::Norm, 3, 3, F::Struct, false, false},
        {OpKind::LogSoftmax, "LogSoftmax", C::Softmax, 1, 1, F::Struct, false, false},
        {OpKind::GatherElements, "GatherElements", C::Gather, 2, 2, F::Struct, false, false},
        {OpKind::Identity, "Identity", C::Layout, 1, 1, F::Unit, false, false},
        {OpKind::Unknown, "Unknown", C::Unknown, 0, -1, F::Struct, false, false},
    };
    return t;
}
} // namespace

const std::vector<OpInfo>& opCatalogue()
{
    return table();
}

const OpInfo& opInfo(OpKind kind)
{
    return table()[static_cast<std::size_t>(kind)];
}

std::optional<OpKind> opKindFromName(std::string_view name)
{
    for (const OpInfo& i : table())
        if (i.name == name && i.kind != OpKind::Unknown)
            return i.kind;
    return std::nullopt;
}

std::string_view opClassName(OpClass c)
{
    switch (c) {
    case C::Leaf: return "leaf";
    case C::Layout: return "layout";
    case C::ElementWise: return "elementwise";
    case C::MatMul: return "matmul";
    case C::Conv: return "conv";
    case C::Pool: return "pool";
    case C::Norm: return "norm";
    case C::Reduce: return "reduce";
    case C::Softmax: return "softmax";
    case C::Attention: return "attention";
    case C::Spectral: return "spectral";
    case C::Gather: return "gather";
    case C::Custom: return "custom";
    case C::Unknown: return "unknown";
    }
    return "unknown";
}

Op Op::make(OpKind kind, Attrs attrs)
{
    Op op;
    op.kind = kind;
    op.name = std::string(opInfo(kind).name);
    op.attrs = std::move(attrs);
    return op;
}

Op Op::unknown(std::string name, std::string payloadJson)
{
    Op op;
    op.kind = OpKind::Unknown;
    op.name = std::move(name);
    op.unknownPayload = std::move(payloadJson);
    return op;
}

std::string Op::label() const
{
    std::string sub = subOp();
    if (info().form == PayloadForm::Scalar && !sub.empty())
        return name + "." + sub;
    return name;
}

} // namespace costscope
