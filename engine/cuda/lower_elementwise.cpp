// SPDX-License-Identifier: MIT
// Binary (numpy broadcasting) and Activation over F32, one kernel per node (no fusion yet).
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

LowerResult lowerBinary(LowerContext& c)
{
    static const std::pair<const char*, BinaryOp> names[] = {
        {"Add", BinaryOp::Add}, {"Sub", BinaryOp::Sub}, {"Mul", BinaryOp::Mul}, {"Div", BinaryOp::Div},
        {"Pow", BinaryOp::Pow}, {"Max", BinaryOp::Max}, {"Min", BinaryOp::Min}, {"Mod", BinaryOp::Mod},
        {"PRelu", BinaryOp::PRelu}};
    const std::string sub = c.node.op.subOp();
    BinaryArgs args;
    bool known = false;
    for (const auto& [n, op] : names)
        if (sub == n) {
            args.op = op;
            known = true;
        }
    if (!known)
        return lowerError("the CUDA backend has no Binary op '" + sub + "'");
    const DeviceValue &a = *c.in[0], &b = *c.in[1];
    for (const DeviceValue* v : {&a, &b, static_cast<const DeviceValue*>(&c.out)})
        if (auto r = requireF32(*v, "Binary operand"); !r)
            return r.error();
    auto as = broadcastStrides(a.dims, c.out.dims), bs = broadcastStrides(b.dims, c.out.dims);
    if (!as || !bs)
        return lowerError("Binary: " + valueString(a) + " and " + valueString(b) + " do not broadcast to "
                          + valueString(c.out));
    if (c.out.dims.size() > static_cast<std::size_t>(kMaxRank))
        return lowerError("Binary: rank above " + std::to_string(kMaxRank));
    args.rank = static_cast<int>(c.out.dims.size());
    for (std::size_t d = 0; d < c.out.dims.size(); ++d) {
        args.dims[d] = c.out.dims[d];
        args.aStrides[d] = (*as)[d];
        args.bStrides[d] = (*bs)[d];
    }
    args.count = product(c.out.dims);
    args.sameShape = a.dims == c.out.dims && b.dims == c.out.dims;
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
    if (auto r = requireF32(*c.in[0], "Activation input"); !r)
        return r.error();
    if (c.in[0]->dims != c.out.dims)
        return lowerError("Activation: output " + valueString(c.out) + " differs from input " + valueString(*c.in[0]));
    const auto* x = static_cast<const float*>(c.in[0]->ptr);
    auto* y = static_cast<float*>(c.out.ptr);
    const std::int64_t n = product(c.out.dims);
    const ActArgs a = *act;
    return Launch([=](cudaStream_t s) { launchActivation(x, y, n, a, s); });
}

} // namespace costscope::cuda
