// SPDX-License-Identifier: MIT
#include "vulkan/vk_lowering.h"

#include <algorithm>

namespace costscope::vk {

LowerFn findLowering(OpKind kind)
{
    switch (kind) {
    case OpKind::Reshape:
    case OpKind::Squeeze:
    case OpKind::Unsqueeze:
    case OpKind::Flatten:
    case OpKind::Identity:
    case OpKind::Dropout: return lowerView;
    case OpKind::Transpose: return lowerTranspose;
    case OpKind::Slice: return lowerSlice;
    case OpKind::Narrow: return lowerNarrow;
    case OpKind::Concat: return lowerConcat;
    case OpKind::Expand: return lowerExpand;
    case OpKind::Tile: return lowerTile;
    case OpKind::Pad: return lowerPad;
    case OpKind::Gather: return lowerGather;
    case OpKind::GatherElements: return lowerGatherElements;
    case OpKind::Binary: return lowerBinary;
    case OpKind::Compare: return lowerCompare;
    case OpKind::Where: return lowerWhere;
    case OpKind::Sum: return lowerSum;
    case OpKind::Activation: return lowerActivation;
    case OpKind::Clip: return lowerClip;
    case OpKind::Cast: return lowerCast;
    case OpKind::ConstantOfShape: return lowerConstantOfShape;
    case OpKind::Reduce: return lowerReduce;
    case OpKind::Softmax: return lowerSoftmax;
    case OpKind::LogSoftmax: return lowerLogSoftmax;
    case OpKind::LayerNorm: return lowerLayerNorm;
    case OpKind::RmsNorm: return lowerRmsNorm;
    case OpKind::BatchNorm: return lowerBatchNorm;
    case OpKind::InstanceNorm: return lowerInstanceNorm;
    case OpKind::Lrn: return lowerLrn;
    case OpKind::MatMul: return lowerMatMul;
    case OpKind::FusedMatMulBiasAct: return lowerFusedMatMulBiasAct;
    case OpKind::Gemm: return lowerGemm;
    case OpKind::Attention: return lowerAttention;
    case OpKind::Conv: return lowerConv;
    case OpKind::ConvTranspose: return lowerConvTranspose;
    case OpKind::Pool: return lowerPool;
    case OpKind::GlobalPool: return lowerGlobalPool;
    case OpKind::Fft: return lowerFft;
    case OpKind::WelchPeaks: return lowerWelchPeaks;
    case OpKind::LogMel: return lowerLogMel;
    default: return nullptr;
    }
}

std::size_t Lowering::outputSlot()
{
    out.slot = newSlot(deviceBytes(out.dims, out.dtype));
    return out.slot;
}

std::uint32_t deviceElementSize(DType t)
{
    switch (t) {
    case DType::F32:
    case DType::I32:
    case DType::U32:
    case DType::Bool: return 4;
    case DType::I64:
    case DType::F64: return 8;
    default: return 0;
    }
}

std::uint64_t elementCount(const Dims& d)
{
    std::uint64_t n = 1;
    for (std::int64_t v : d)
        n *= static_cast<std::uint64_t>(std::max<std::int64_t>(v, 0));
    return n;
}

std::uint64_t deviceBytes(const Dims& d, DType t)
{
    return elementCount(d) * deviceElementSize(t);
}

Dims broadcastStrides(const Dims& d, const Dims& out)
{
    const Dims own = contiguousStrides(d);
    Dims s(out.size(), 0);
    const std::size_t lead = out.size() - d.size();
    for (std::size_t i = 0; i < d.size(); ++i)
        s[lead + i] = d[i] == 1 ? 0 : own[i];
    return s;
}

std::optional<Dims> intsFromAttrOrConstant(const Lowering& l, const std::string& key, std::size_t index)
{
    if (l.attrs().find(key)) {
        if (auto list = l.attrs().getInts(key))
            return *list;
        if (auto one = l.attrs().getInt(key))
            return Dims{*one};
    }
    if (index < l.constants.size() && l.constants[index]) {
        const HostTensor& t = *l.constants[index];
        Dims v;
        for (std::uint64_t i = 0; i < t.elements(); ++i)
            v.push_back(t.valueAsInt(i));
        return v;
    }
    return std::nullopt;
}

std::optional<Dims> statedDims(const Lowering& l)
{
    Dims dims;
    for (const Dim& d : l.node.shape.dims) {
        auto v = d.resolve(l.bindings);
        if (!v || *v < 0)
            return std::nullopt;
        dims.push_back(*v);
    }
    return dims;
}

std::array<std::uint32_t, 3> linearGroups(std::uint64_t threads)
{
    constexpr std::uint64_t maxX = 65535;
    const std::uint64_t groups = std::max<std::uint64_t>((threads + kLocalSize - 1) / kLocalSize, 1);
    const std::uint64_t x = std::min(groups, maxX);
    return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>((groups + x - 1) / x), 1};
}

} // namespace costscope::vk
