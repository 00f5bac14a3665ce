// SPDX-License-Identifier: MIT
// Binary (numpy broadcasting; F32 vectorised, F64/I64/I32/U8 typed, F16/BF16 as one-op element-wise programs,
// And/Or/Xor over Bool) and Activation over F32, F16 and BF16, one kernel per node (lower_fused.cpp runs fusion groups
// of them as one kernel).
#include "cuda/cuda_lower.h"

namespace costscope::cuda {

std::optional<ActArgs> activationFor(const std::string& name, const Attrs& attrs)
{
    static const std::pair<const char*, ActOp> names[] = {
        {"Relu", ActOp::Relu},           {"Sigmoid", ActOp::Sigmoid},   {"Tanh", ActOp::Tanh},
        {"Exp", ActOp::Exp},             {"Log", ActOp::Log},           {"Sqrt", ActOp::Sqrt},
        {"Rsqrt", ActOp::Rsqrt},         {"Neg", ActOp::Neg},           {"Abs", ActOp::Abs},
        {"Erf", ActOp::Erf},             {"Sign", ActOp::Sign},         {"Softplus", ActOp::Softplus},
        {"Softsign", ActOp::Softsign},   {"IsNaN", ActOp::IsNaN},       {"Reciprocal", ActOp::Reciprocal},
        {"Floor", ActOp::Floor},         {"Ceil", ActOp::Ceil},         {"Round", ActOp::Round},
        {"Sin", ActOp::Sin},             {"Cos", ActOp::Cos},           {"Gelu", ActOp::Gelu},
        {"GeluApprox", ActOp::GeluApprox}, {"Silu", ActOp::Silu},       {"LeakyRelu", ActOp::LeakyRelu},
        {"Elu", ActOp::Elu},             {"Selu", ActOp::Selu},         {"Shrink", ActOp::Shrink},
        {"HardSigmoid", ActOp::HardSigmoid}};
    for (const auto& [n, op] : names) {
        if (name != n)
            continue;
        // The ONNX defaults, as the CPU backend uses them.
        ActArgs a;
        a.op = op;
        switch (op) {
        case ActOp::LeakyRelu: a.alpha = float(attrs.doubleOr("alpha", 0.01)); break;
        case ActOp::Elu: a.alpha = float(attrs.doubleOr("alpha", 1.0)); break;
        case ActOp::Selu:
            a.alpha = float(attrs.doubleOr("alpha", 1.67326319217681884765625));
            a.gamma = float(attrs.doubleOr("gamma", 1.05070102214813232421875));
            break;
        case ActOp::Shrink:
            a.bias = float(attrs.doubleOr("bias", 0.0));
            a.lambd = float(attrs.doubleOr("lambd", 0.5));
            break;
        case ActOp::HardSigmoid:
            a.alpha = float(attrs.doubleOr("alpha", 0.2));
            a.beta = float(attrs.doubleOr("beta", 0.5));
            break;
        default: break;
        }
        return a;
    }
    return std::nullopt;
}

std::optional<BinaryOp> binaryOpFor(const std::string& name)
{
    static const std::pair<const char*, BinaryOp> names[] = {
        {"Add", BinaryOp::Add},     {"Sub", BinaryOp::Sub}, {"Mul", BinaryOp::Mul}, {"Div", BinaryOp::Div},
        {"Pow", BinaryOp::Pow},     {"Max", BinaryOp::Max}, {"Min", BinaryOp::Min}, {"Mod", BinaryOp::Mod},
        {"PRelu", BinaryOp::PRelu}, {"And", BinaryOp::And}, {"Or", BinaryOp::Or},   {"Xor", BinaryOp::Xor}};
    for (const auto& [n, op] : names)
        if (name == n)
            return op;
    return std::nullopt;
}

namespace {
bool logical(BinaryOp op)
{
    return op == BinaryOp::And || op == BinaryOp::Or || op == BinaryOp::Xor;
}

bool isSixteenBit(DType t)
{
    return t == DType::F16 || t == DType::BF16;
}

// A 16-bit Binary or Activation as a one-op element-wise program: loaded to float, computed, stored back rounded.
LowerResult sixteenBitProgram(LowerContext& c, const std::vector<const DeviceValue*>& inputs, const FusedOp& op)
{
    return elementwiseProgram(inputs, {op}, c.out, c.node.op.label(), nullptr);
}
} // namespace

LowerResult lowerBinary(LowerContext& c)
{
    const std::string sub = c.node.op.subOp();
    BinaryArgs args;
    const auto op = binaryOpFor(sub);
    if (!op)
        return lowerError("the CUDA backend has no Binary op '" + sub + "'");
    args.op = *op;
    const DeviceValue &a = *c.in[0], &b = *c.in[1];
    // The kernels take Mod's sign from the dividend for floats (fmod) and from the divisor for integers; ONNX's fmod
    // attribute chooses. The other pairing is left to the host fallback (the CPU backend does both).
    if (args.op == BinaryOp::Mod) {
        const bool floating = a.dtype == DType::F32 || a.dtype == DType::F64 || isSixteenBit(a.dtype);
        if (c.attrs().getBool("fmod").value_or(false) != floating)
            return lowerError(std::string("Binary.Mod: fmod=") + (floating ? "0" : "1") + " on " + valueString(a)
                              + " has no CUDA kernel");
    }
    if (isSixteenBit(a.dtype) && b.dtype == a.dtype && c.out.dtype == a.dtype && !logical(args.op))
        return sixteenBitProgram(c, {&a, &b}, FusedOp{true, args.op, {}, 0, 1});
    const auto type = elemTypeOf(a.dtype);
    if (logical(args.op) && (a.dtype != DType::Bool || b.dtype != DType::Bool || c.out.dtype != DType::Bool))
        return lowerError("Binary." + sub + ": operands " + valueString(a) + " and " + valueString(b) + " and result "
                          + valueString(c.out) + " must be Bool");
    if (!type || b.dtype != a.dtype || c.out.dtype != a.dtype)
        return lowerError("Binary: operands " + valueString(a) + " and " + valueString(b) + " and result "
                          + valueString(c.out) + " must share one of F32, F64, I64, I32, U8");
    Dims bDims = b.dims;
    if (args.op == BinaryOp::PRelu && !broadcastStrides(b.dims, c.out.dims) && b.dims.size() == 1
        && a.dims.size() >= 2 && b.dims[0] == a.dims[1]) {
        // Opset 6 PRelu, as on the CPU backend: a 1-D slope is per channel (axis 1), not numpy-broadcast on the
        // last axis.
        bDims.assign(a.dims.size() - 1, 1);
        bDims[0] = b.dims[0];
    }
    if (!makeBroadcastArgs(a.dims, bDims, c.out.dims, args))
        return lowerError("Binary: " + valueString(a) + " and " + valueString(b) + " do not broadcast to "
                          + valueString(c.out));
    if (*type != ElemType::F32) {
        const void *pa = a.ptr, *pb = b.ptr;
        void* po = c.out.ptr;
        const ElemType t = *type;
        return Launch([=](cudaStream_t s) { launchBinaryTyped(pa, pb, po, t, args, s); });
    }
    const auto* pa = static_cast<const float*>(a.ptr);
    const auto* pb = static_cast<const float*>(b.ptr);
    auto* po = static_cast<float*>(c.out.ptr);
    return Launch([=](cudaStream_t s) { launchBinary(pa, pb, po, args, s); });
}

LowerResult lowerActivation(LowerContext& c)
{
    const std::string sub = c.node.op.subOp();
    auto act = activationFor(sub, c.attrs());
    if (!act)
        return lowerError("the CUDA backend has no activation '" + sub + "'");
    if (isSixteenBit(c.in[0]->dtype) && c.out.dtype == c.in[0]->dtype && act->op != ActOp::IsNaN) {
        if (c.in[0]->dims != c.out.dims)
            return lowerError("Activation: output " + valueString(c.out) + " differs from input "
                              + valueString(*c.in[0]));
        return sixteenBitProgram(c, {c.in[0]}, FusedOp{false, BinaryOp::Add, *act, 0, 0});
    }
    if (auto r = requireF32(*c.in[0], "Activation input"); !r)
        return r.error();
    if (c.in[0]->dims != c.out.dims)
        return lowerError("Activation: output " + valueString(c.out) + " differs from input " + valueString(*c.in[0]));
    const auto* x = static_cast<const float*>(c.in[0]->ptr);
    const std::int64_t n = product(c.out.dims);
    if (act->op == ActOp::IsNaN && c.out.dtype == DType::Bool) {
        auto* flags = static_cast<std::uint8_t*>(c.out.ptr);
        return Launch([=](cudaStream_t s) { launchIsNaN(x, flags, n, s); });
    }
    if (auto r = requireF32(c.out, "Activation result"); !r)
        return r.error();
    auto* y = static_cast<float*>(c.out.ptr);
    const ActArgs a = *act;
    return Launch([=](cudaStream_t s) { launchActivation(x, y, n, a, s); });
}

} // namespace costscope::cuda
