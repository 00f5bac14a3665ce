// SPDX-License-Identifier: MIT
// Element-wise ops: Binary/Compare/Activation take their sub-op in attr "op"; parameterised activations keep ONNX's
// defaults written out so that consumers need not know them.
#include "formats/onnx_ops.h"

#include <map>
#include <numeric>

namespace costscope::onnx_import {

namespace {
const std::map<std::string, std::string, std::less<>>& binaryOps()
{
    static const std::map<std::string, std::string, std::less<>> m = {
        {"Add", "Add"}, {"Sub", "Sub"}, {"Mul", "Mul"}, {"Div", "Div"},   {"Pow", "Pow"}, {"Max", "Max"},
        {"Min", "Min"}, {"Mod", "Mod"}, {"PRelu", "PRelu"}, {"And", "And"}, {"Or", "Or"}, {"Xor", "Xor"},
        {"BitShift", "BitShift"}, {"BitwiseAnd", "BitwiseAnd"}, {"BitwiseOr", "BitwiseOr"}, {"BitwiseXor", "BitwiseXor"},
    };
    return m;
}

const std::map<std::string, std::string, std::less<>>& compareOps()
{
    static const std::map<std::string, std::string, std::less<>> m = {
        {"Equal", "Eq"}, {"Less", "Lt"}, {"LessOrEqual", "Le"}, {"Greater", "Gt"}, {"GreaterOrEqual", "Ge"},
    };
    return m;
}

bool isPlainActivation(const std::string& t)
{
    static const char* const names[] = {"Relu", "Sigmoid", "Tanh",  "Exp",   "Log",   "Sqrt",     "Neg",
                                        "Abs",  "Erf",     "Sign",  "Softplus", "IsNaN", "Reciprocal", "Floor",
                                        "Ceil", "Not",     "Sin",   "Cos",   "Tan",   "Round",    "Softsign",
                                        "Asin", "Acos",    "Atan",  "Sinh",  "Cosh",  "Asinh",    "Acosh",
                                        "Atanh", "HardSwish", "Mish", "BitwiseNot"};
    for (const char* n : names)
        if (t == n)
            return true;
    return false;
}

// Activation parameters and ONNX's defaults for them.
const std::map<std::string, std::vector<std::pair<std::string, double>>, std::less<>>& paramActivations()
{
    static const std::map<std::string, std::vector<std::pair<std::string, double>>, std::less<>> m = {
        {"LeakyRelu", {{"alpha", 0.01}}},
        {"Elu", {{"alpha", 1.0}}},
        {"Celu", {{"alpha", 1.0}}},
        {"ThresholdedRelu", {{"alpha", 1.0}}},
        {"Selu", {{"alpha", 1.67326319217681884765625}, {"gamma", 1.05070102214813232421875}}},
        {"HardSigmoid", {{"alpha", 0.2}, {"beta", 0.5}}},
        {"Shrink", {{"lambd", 0.5}, {"bias", 0.0}}},
    };
    return m;
}

Op subOp(OpKind kind, const std::string& op)
{
    Attrs a;
    a.set("op", op);
    return Op::make(kind, std::move(a));
}

// Max/Min of more than two inputs: a chain of binary ops; the last stands for the ONNX output.
Mapped chainBinary(const NodeContext& ctx, const std::string& op)
{
    if (ctx.inputCount() == 1)
        return single(Op::make(OpKind::Identity), {0});
    std::vector<MappedOp> out;
    MappedOp first{subOp(OpKind::Binary, op), {InputRef{0, -1}, InputRef{1, -1}}, std::nullopt};
    out.push_back(std::move(first));
    for (int i = 2; i < ctx.inputCount(); ++i) {
        InputRef prev{-1, static_cast<int>(out.size()) - 1};
        out.push_back(MappedOp{subOp(OpKind::Binary, op), {prev, InputRef{i, -1}}, std::nullopt});
    }
    out.back().output = 0;
    return out;
}

Mapped mapClip(const NodeContext& ctx)
{
    Attrs a;
    std::vector<int> inputs{0};
    auto bound = [&](const char* name, int index) {
        std::optional<double> v = ctx.opset() < 11 ? ctx.attrFloat(name) : ctx.constInputScalar(index);
        if (v)
            a.set(name, *v);
        else if (ctx.opset() >= 11 && ctx.hasInput(index))
            inputs.push_back(index);
    };
    bound("min", 1);
    bound("max", 2);
    if (inputs.size() == 2 && inputs[1] == 2)
        return ctx.error("a computed max without a computed min is not supported");
    return single(Op::make(OpKind::Clip, std::move(a)), inputs);
}

Mapped mapCast(const NodeContext& ctx)
{
    auto to = ctx.attrInt("to");
    if (!to)
        return ctx.error("the required attribute to is missing");
    const DType t = dtypeForTensor(static_cast<std::int32_t>(*to), ctx.node().output(0), nullptr);
    if (!dtypeFromOnnx(static_cast<std::int32_t>(*to)))
        ctx.warn("casts to " + onnxTypeName(static_cast<std::int32_t>(*to)) + ", held as " + std::string(dtypeName(t)));
    Attrs a;
    a.set("to", std::string(dtypeName(t)));
    // A type held by conversion: the backend rounds onto its values (or, lacking it, says so).
    if (!dtypeFromOnnx(static_cast<std::int32_t>(*to)))
        a.set("onnx_to", onnxTypeName(static_cast<std::int32_t>(*to)));
    if (auto saturate = ctx.attrInt("saturate"))
        a.set("saturate", *saturate != 0);
    if (auto mode = ctx.attrString("round_mode"))
        a.set("round_mode", *mode);
    return single(Op::make(OpKind::Cast, std::move(a)), {0});
}

// CastLike is Cast to the element type of its second input where the file or the inference states it.
Mapped mapCastLike(const NodeContext& ctx)
{
    Attrs a;
    a.set("to", std::string(dtypeName(ctx.inputShape(1)->dtype)));
    if (auto saturate = ctx.attrInt("saturate"))
        a.set("saturate", *saturate != 0);
    return single(Op::make(OpKind::Cast, std::move(a)), {0});
}

Mapped mapConstantOfShape(const NodeContext& ctx)
{
    Attrs a;
    double value = 0.0;
    DType dtype = DType::F32;
    if (const auto* v = ctx.attr("value"); v && v->has_t()) {
        auto t = readTensor(v->t(), nullptr);
        if (!t)
            return ctx.error(t.error().message);
        dtype = t->shape.dtype;
        if (auto d = constDoubles(*t); d && !d->empty())
            value = d->front();
    }
    a.set("value", value);
    a.set("dtype", std::string(dtypeName(dtype)));
    return single(Op::make(OpKind::ConstantOfShape, std::move(a)), {0});
}

Mapped mapDropout(const NodeContext& ctx)
{
    Attrs a;
    a.set("ratio", ctx.attrFloat("ratio").value_or(ctx.constInputScalar(1).value_or(0.5)));
    return single(Op::make(OpKind::Dropout, std::move(a)), {0});
}
} // namespace

std::optional<Mapped> mapElementWise(const NodeContext& ctx)
{
    const std::string& t = ctx.opType();
    if ((t == "Max" || t == "Min") && ctx.inputCount() != 2)
        return chainBinary(ctx, t);
    if (auto it = binaryOps().find(t); it != binaryOps().end()) {
        Op op = subOp(OpKind::Binary, it->second);
        if (t == "Mod" && ctx.attrInt("fmod").value_or(0) != 0)
            op.attrs.set("fmod", true);
        if (t == "BitShift")
            op.attrs.set("direction", ctx.attrString("direction").value_or("LEFT"));
        return single(std::move(op), {0, 1});
    }
    if (auto it = compareOps().find(t); it != compareOps().end())
        return single(subOp(OpKind::Compare, it->second), {0, 1});
    if (isPlainActivation(t))
        return single(subOp(OpKind::Activation, t), {0});
    if (t == "IsInf") {
        Op op = subOp(OpKind::Activation, t);
        op.attrs.set("detect_negative", ctx.attrInt("detect_negative").value_or(1) != 0);
        op.attrs.set("detect_positive", ctx.attrInt("detect_positive").value_or(1) != 0);
        return single(std::move(op), {0});
    }
    if (t == "Gelu") {
        const bool tanh = ctx.attrString("approximate").value_or("none") == "tanh";
        return single(subOp(OpKind::Activation, tanh ? "GeluApprox" : "Gelu"), {0});
    }
    if (auto it = paramActivations().find(t); it != paramActivations().end()) {
        Op op = subOp(OpKind::Activation, t);
        for (const auto& [name, dflt] : it->second)
            op.attrs.set(name, ctx.attrFloat(name).value_or(dflt));
        return single(std::move(op), {0});
    }
    if (t == "Sum") {
        std::vector<int> inputs(static_cast<std::size_t>(ctx.inputCount()));
        std::iota(inputs.begin(), inputs.end(), 0);
        return single(Op::make(OpKind::Sum), inputs);
    }
    if (t == "Clip")
        return mapClip(ctx);
    if (t == "Cast")
        return mapCast(ctx);
    if (t == "CastLike") {
        if (!ctx.inputShape(1)) // the target type is known only at run time: the ONNX op itself, run by name
            return std::nullopt;
        return mapCastLike(ctx);
    }
    if (t == "ConstantOfShape")
        return mapConstantOfShape(ctx);
    if (t == "Dropout")
        return mapDropout(ctx);
    return std::nullopt;
}

} // namespace costscope::onnx_import
