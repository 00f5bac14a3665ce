// SPDX-License-Identifier: MIT
#include "cpu/precision.h"

#include "cpu/dtype_convert.h"

#include <algorithm>

namespace costscope::cpu {

namespace {
// What a kernel computes in, by op kind.
enum class Family {
    Bytes,        // moves elements without reading them (layout, gather): any dtype as it is
    Float32,      // F32 only (matmul, conv, norms, reductions, softmax, attention, spectral)
    FloatOrDouble, // F32 and F64 (activations)
    Numeric,      // F32, F64, I64, I32, U8 and Bool (binary, compare, sum, where, clip)
};

Family familyOf(OpKind k)
{
    switch (k) {
    case OpKind::MatMul:
    case OpKind::FusedMatMulBiasAct:
    case OpKind::Gemm:
    case OpKind::Attention:
    case OpKind::Conv:
    case OpKind::ConvTranspose:
    case OpKind::Pool:
    case OpKind::GlobalPool:
    case OpKind::LayerNorm:
    case OpKind::RmsNorm:
    case OpKind::InstanceNorm:
    case OpKind::BatchNorm:
    case OpKind::Lrn:
    case OpKind::Reduce:
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
    case OpKind::LogMel: return Family::Float32;
    case OpKind::Activation: return Family::FloatOrDouble;
    case OpKind::Binary:
    case OpKind::Compare:
    case OpKind::Sum:
    case OpKind::Where:
    case OpKind::Clip: return Family::Numeric;
    default: return Family::Bytes;
    }
}

// The narrow floats (16- and 8-bit) the kernels compute in F32.
bool isHalf(DType t)
{
    return t == DType::F16 || t == DType::BF16 || t == DType::F8E4M3 || t == DType::F8E5M2;
}

bool numericNative(DType t)
{
    return t == DType::F32 || t == DType::F64 || t == DType::I64 || t == DType::I32 || t == DType::U8
        || t == DType::Bool;
}

// The dtype a kernel of `family` computes data of dtype t in.
DType computeDType(Family family, DType t)
{
    switch (family) {
    case Family::Bytes: return t;
    case Family::Float32: return DType::F32;
    case Family::FloatOrDouble: return t == DType::F32 || t == DType::F64 ? t : isHalf(t) ? DType::F32 : DType::F64;
    case Family::Numeric: return numericNative(t) ? t : isHalf(t) ? DType::F32 : DType::I64;
    }
    return t;
}

// Which inputs carry the data the kernel computes on (the others are indices, masks, shapes or bounds that kernels
// read through valueAsDouble/valueAsInt whatever their dtype).
bool isDataInput(const Node& node, std::size_t i, const HostTensor& t)
{
    switch (node.op.kind) {
    case OpKind::Where: return i == 1 || i == 2;
    case OpKind::Clip:
    case OpKind::Activation: return i == 0;
    case OpKind::Binary:
    case OpKind::Compare:
    case OpKind::Sum: return true;
    case OpKind::Reduce: return i == 0;
    default: return isFloating(t.dtype()); // Float32 kinds: float inputs only, so that masks and indices stay
    }
}
} // namespace

bool Precision::needed() const
{
    return output || std::any_of(inputs.begin(), inputs.end(), [](const auto& d) { return d.has_value(); });
}

Precision precisionFor(const Node& node, const Inputs& in)
{
    Precision p;
    // BitwiseNot flips the bits of whatever integer it is given.
    const Family family = node.op.subOp() == "BitwiseNot" ? Family::Bytes : familyOf(node.op.kind);
    if (family == Family::Bytes)
        return p;
    // Element-wise ops compute every data input in the type of the first one, so that mixed inputs (Pow of a float
    // by an integer) meet in one dtype.
    std::optional<DType> common;
    p.inputs.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const HostTensor& t = *in[i];
        if (!isDataInput(node, i, t) || !isConvertible(t.dtype()))
            continue;
        if (!common)
            common = computeDType(family, t.dtype());
        if (t.dtype() != *common)
            p.inputs[i] = *common;
    }
    const DType stated = node.shape.dtype;
    if (std::any_of(p.inputs.begin(), p.inputs.end(), [](const auto& d) { return d.has_value(); })
        && node.op.kind != OpKind::Compare && stated != common && isConvertible(stated))
        p.output = stated;
    return p;
}

KernelStatus runConverted(KernelFn kernel, KernelContext& ctx, Inputs& in, HostTensor& out,
                          std::vector<HostTensor>& converted)
{
    const Precision p = precisionFor(ctx.node, in);
    if (!p.needed())
        return kernel(ctx, in, out);
    converted.resize(std::max(converted.size(), in.size()));
    for (std::size_t i = 0; i < in.size(); ++i)
        if (p.inputs[i]) {
            convertTensor(ctx.pool, *in[i], *p.inputs[i], converted[i]);
            in[i] = &converted[i];
        }
    KernelStatus status = kernel(ctx, in, out);
    if (!status || !p.output || out.dtype() == *p.output)
        return status;
    HostTensor& computed = converted[0]; // its input copy is no longer needed
    std::swap(computed, out);
    if (!convertTensor(ctx.pool, computed, *p.output, out))
        return fail("cannot give the output as " + std::string(dtypeName(*p.output)));
    return ok();
}

} // namespace costscope::cpu
