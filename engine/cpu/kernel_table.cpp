// SPDX-License-Identifier: MIT
#include "cpu/kernel.h"
#include "cpu/onnx_named_kernels.h"

#include <algorithm>

namespace costscope::cpu {

KernelFn findKernel(OpKind kind)
{
    switch (kind) {
    case OpKind::Binary: return runBinary;
    case OpKind::Compare: return runCompare;
    case OpKind::Where: return runWhere;
    case OpKind::Sum: return runSum;
    case OpKind::Activation: return runActivation;
    case OpKind::Clip: return runClip;
    case OpKind::Cast: return runCast;
    case OpKind::Reshape: return runReshape;
    case OpKind::Unsqueeze: return runUnsqueeze;
    case OpKind::Squeeze: return runSqueeze;
    case OpKind::Flatten: return runFlatten;
    case OpKind::Identity:
    case OpKind::Dropout: return runIdentity;
    case OpKind::ConstantOfShape: return runConstantOfShape;
    case OpKind::Transpose: return runTranspose;
    case OpKind::Narrow: return runNarrow;
    case OpKind::Slice: return runSlice;
    case OpKind::Concat: return runConcat;
    case OpKind::Expand: return runExpand;
    case OpKind::Tile: return runTile;
    case OpKind::Pad: return runPad;
    case OpKind::Gather: return runGather;
    case OpKind::GatherElements: return runGatherElements;
    case OpKind::Reduce: return runReduce;
    case OpKind::Softmax: return runSoftmax;
    case OpKind::LogSoftmax: return runLogSoftmax;
    case OpKind::LayerNorm: return runLayerNorm;
    case OpKind::RmsNorm: return runRmsNorm;
    case OpKind::BatchNorm: return runBatchNorm;
    case OpKind::InstanceNorm: return runInstanceNorm;
    case OpKind::Lrn: return runLrn;
    case OpKind::MatMul: return runMatMul;
    case OpKind::FusedMatMulBiasAct: return runFusedMatMulBiasAct;
    case OpKind::Gemm: return runGemm;
    case OpKind::Attention: return runAttention;
    case OpKind::Conv: return runConv;
    case OpKind::ConvTranspose: return runConvTranspose;
    case OpKind::Pool: return runPool;
    case OpKind::GlobalPool: return runGlobalPool;
    case OpKind::Fft: return runFft;
    case OpKind::LogMel: return runLogMel;
    case OpKind::WelchPeaks: return runWelchPeaks;
    case OpKind::Input:
    case OpKind::Param:
    case OpKind::Constant:
    case OpKind::Custom:
    case OpKind::Unknown: return nullptr;
    }
    return nullptr;
}

Result<KernelFn> kernelForNode(const Node& n)
{
    KernelFn kernel = findKernel(n.op.kind);
    if (n.op.kind == OpKind::Unknown && !n.op.attrs.has("onnx_domain")) {
        const std::int64_t output = n.op.attrs.intOr("onnx_output", 0);
        kernel = findOnnxOutputKernel(n.op.name, output);
        if (!kernel && output > 0 && findOnnxKernel(n.op.name))
            return fail("the CPU backend computes only output 0 of op " + n.op.label() + ", not output "
                        + std::to_string(output));
    }
    const bool leaf = n.op.kind == OpKind::Input || n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant;
    if (!leaf && !kernel)
        return fail("the CPU backend cannot run op " + n.op.label());
    const OpInfo& info = n.op.info();
    const auto count = static_cast<int>(n.inputs.size());
    if (!leaf && (count < info.minInputs || (info.maxInputs >= 0 && count > info.maxInputs)))
        return fail(n.op.label() + " takes " + std::to_string(info.minInputs) + ".."
                    + (info.maxInputs < 0 ? std::string("any") : std::to_string(info.maxInputs)) + " inputs, has "
                    + std::to_string(count));
    return kernel;
}

std::optional<std::vector<std::int64_t>> intsFromAttrOrInput(const KernelContext& ctx, const Inputs& in,
                                                             const std::string& key, std::size_t index)
{
    if (const AttrValue* v = ctx.attrs().find(key)) {
        if (auto list = ctx.attrs().getInts(key))
            return list;
        if (auto one = ctx.attrs().getInt(key))
            return std::vector<std::int64_t>{*one};
        if (std::holds_alternative<std::monostate>(*v))
            return std::nullopt;
    }
    if (index < in.size() && in[index]) {
        std::vector<std::int64_t> out;
        for (std::uint64_t i = 0; i < in[index]->elements(); ++i)
            out.push_back(in[index]->valueAsInt(i));
        return out;
    }
    return std::nullopt;
}

std::optional<Dims> statedDims(const KernelContext& ctx)
{
    Dims d;
    for (const Dim& dim : ctx.node.shape.dims) {
        auto v = dim.resolve(ctx.bindings);
        if (!v)
            return std::nullopt;
        d.push_back(*v);
    }
    return d;
}

KernelStatus requireDType(const HostTensor& t, DType want, const char* what)
{
    if (t.dtype() != want)
        return fail(std::string(what) + " must be " + std::string(dtypeName(want)) + ", got "
                    + std::string(dtypeName(t.dtype())));
    return ok();
}

} // namespace costscope::cpu
