// SPDX-License-Identifier: MIT
// ONNX op → catalogue op. The attribute names below are the contract with the cost models and the CPU engine.
// ONNX defaults are written out, so an attribute listed without '?' is always present; '?' marks one that is
// present only when it matters. Constant shape-like inputs are folded into attributes and dropped as inputs.
//
//   Conv            kernel_size, stride, padding (begin pads), padding_end? (when ≠ begin), dilation, groups,
//                   auto_pad? (only when SAME_* could not be resolved to pads); kernel_size from W when absent
//   ConvTranspose   as Conv + output_padding, output_shape?
//   Pool            kind ("Max"|"Avg"), kernel_size, stride, padding, padding_end?, dilation? (when ≠ 1),
//                   ceil_mode? (true), count_include_pad? (true, Avg only)
//   GlobalPool      kind ("Avg"|"Max")
//   Gemm            alpha, beta (double), trans_a, trans_b (bool)
//   MatMul, Where, Identity, Sum   (none)
//   BatchNorm       eps, momentum          InstanceNorm   eps          LayerNorm   axis, eps
//   Lrn             size, alpha, beta, bias
//   Dropout         ratio (output 0 only; a consumed mask output is an error)
//   Concat, Flatten, Gather, GatherElements, Softmax, LogSoftmax   axis
//   Softmax/LogSoftmax  flatten_2d? (true: opset < 13 semantics, input viewed as 2-D at axis)
//   Unsqueeze, Squeeze  axes (absent on Squeeze = all size-1 dims; input 1 kept when computed)
//   ConstantOfShape value (double), dtype ("F32", ...)
//   Reshape         new_shape (resolved: 0 copied from the input unless allowzero, -1 inferred where the shapes are
//                   static), allowzero? (true); shape input kept only when computed
//   Transpose       perm                   Expand   target_shape (when constant; else input 1 kept)
//   Slice           starts, ends, axes, steps (when all constant; else inputs 1..4 kept)
//   Split           one Narrow per output: axis (non-negative), start, len
//   Pad             mode ("constant"|"reflect"|"edge"), pads (ONNX order: all begins, then all ends), value, axes?
//   Clip            min?, max? (absent = unbounded)           Tile   repeats (the repeats input stays too)
//   Cast            to (dtype name, "I64")
//   Binary          op: Add Sub Mul Div Pow Max Min Mod PRelu And Or Xor BitShift BitwiseAnd BitwiseOr BitwiseXor;
//                   fmod? (Mod), direction? (BitShift)
//                   (Max/Min of 3+ inputs: a chain of Binary)
//   Compare         op: Eq Lt Le Gt Ge (RLX's names)
//   Activation      op: the ONNX name (Relu, Sigmoid, Tanh, Exp, Log, Sqrt, Neg, Abs, Erf, Sign, Softplus, IsNaN,
//                   Reciprocal, Floor, Ceil, Not, BitwiseNot, ...; Gelu as Gelu or GeluApprox); IsInf detect_negative,
//                   detect_positive (bool); LeakyRelu/Elu/Celu/ThresholdedRelu alpha; Selu alpha, gamma;
//                   HardSigmoid alpha, beta; Shrink lambd, bias
//   Reduce          op ("Mean"|"Sum"|"Max"|"Min"|"Prod"|"L1"|"L2"|"LogSum"|"LogSumExp"|"SumSquare"), axes,
//                   keep_dim (bool); axes absent only when the rank is unknown and the file gives none (= all)
//                   or when they are computed (input 1 kept; then noop_with_empty_axes? (true))
//   anything else   Op::unknown(op_type) with the ONNX attributes under their ONNX names
#include "formats/onnx_ops.h"

#include <numeric>

namespace costscope::onnx_import {

namespace {
Mapped mapReduce(const NodeContext& ctx, const std::string& op)
{
    Attrs a;
    a.set("op", op);
    std::vector<int> inputs{0};
    std::optional<std::vector<std::int64_t>> axes = ctx.attrInts("axes");
    if (!axes && ctx.hasInput(1)) {
        axes = ctx.constInputInts(1);
        if (!axes)
            inputs.push_back(1);
    }
    if (axes && axes->empty() && ctx.attrInt("noop_with_empty_axes").value_or(0) != 0)
        return single(Op::make(OpKind::Identity), {0});
    if ((!axes || axes->empty()) && inputs.size() == 1) {
        if (const Shape* in = ctx.inputShape(0)) {
            axes.emplace(in->rank());
            std::iota(axes->begin(), axes->end(), 0);
        }
    }
    if (axes)
        a.set("axes", *axes);
    else if (inputs.size() == 2 && ctx.attrInt("noop_with_empty_axes").value_or(0) != 0)
        a.set("noop_with_empty_axes", true); // the axes input may turn out empty at run time
    a.set("keep_dim", ctx.attrInt("keepdims").value_or(1) != 0);
    return single(Op::make(OpKind::Reduce, std::move(a)), inputs);
}

Mapped mapSoftmax(const NodeContext& ctx, OpKind kind)
{
    const bool legacy = ctx.opset() < 13;
    const std::int64_t axis = ctx.attrInt("axis").value_or(legacy ? 1 : -1);
    Attrs a;
    a.set("axis", axis);
    if (legacy) {
        const Shape* in = ctx.inputShape(0);
        const auto rank = in ? static_cast<std::int64_t>(in->rank()) : -1;
        if (rank < 0 || (axis < 0 ? axis + rank : axis) != rank - 1)
            a.set("flatten_2d", true);
    }
    return single(Op::make(kind, std::move(a)), {0});
}

std::vector<int> givenInputs(const NodeContext& ctx, int upTo)
{
    std::vector<int> inputs;
    for (int i = 0; i < upTo; ++i)
        if (ctx.hasInput(i))
            inputs.push_back(i);
    return inputs;
}

std::optional<Mapped> mapCompute(const NodeContext& ctx)
{
    const std::string& t = ctx.opType();
    Attrs a;
    if (t == "MatMul")
        return single(Op::make(OpKind::MatMul), {0, 1});
    if (t == "Gemm") {
        a.set("alpha", ctx.attrFloat("alpha").value_or(1.0));
        a.set("beta", ctx.attrFloat("beta").value_or(1.0));
        a.set("trans_a", ctx.attrInt("transA").value_or(0) != 0);
        a.set("trans_b", ctx.attrInt("transB").value_or(0) != 0);
        return single(Op::make(OpKind::Gemm, std::move(a)), givenInputs(ctx, 3));
    }
    if (t == "BatchNormalization") {
        if (givenInputs(ctx, 5).size() != 5)
            return ctx.error("BatchNormalization needs 5 inputs (X, scale, B, mean, var)");
        a.set("eps", ctx.attrFloat("epsilon").value_or(1e-5));
        a.set("momentum", ctx.attrFloat("momentum").value_or(0.9));
        return single(Op::make(OpKind::BatchNorm, std::move(a)), {0, 1, 2, 3, 4});
    }
    if (t == "InstanceNormalization") {
        a.set("eps", ctx.attrFloat("epsilon").value_or(1e-5));
        return single(Op::make(OpKind::InstanceNorm, std::move(a)), {0, 1, 2});
    }
    if (t == "LayerNormalization") {
        a.set("axis", ctx.attrInt("axis").value_or(-1));
        a.set("eps", ctx.attrFloat("epsilon").value_or(1e-5));
        return single(Op::make(OpKind::LayerNorm, std::move(a)), givenInputs(ctx, 3));
    }
    if (t == "LRN") {
        auto size = ctx.attrInt("size");
        if (!size)
            return ctx.error("the required attribute size is missing");
        a.set("size", *size);
        a.set("alpha", ctx.attrFloat("alpha").value_or(1e-4));
        a.set("beta", ctx.attrFloat("beta").value_or(0.75));
        a.set("bias", ctx.attrFloat("bias").value_or(1.0));
        return single(Op::make(OpKind::Lrn, std::move(a)), {0});
    }
    if (t == "Softmax")
        return mapSoftmax(ctx, OpKind::Softmax);
    if (t == "LogSoftmax")
        return mapSoftmax(ctx, OpKind::LogSoftmax);
    static const char* const reductions[] = {"Mean", "Sum", "Max", "Min", "Prod", "L1", "L2", "LogSum", "LogSumExp",
                                             "SumSquare"};
    for (const char* r : reductions)
        if (t == std::string("Reduce") + r)
            return mapReduce(ctx, r);
    return std::nullopt;
}
} // namespace

std::optional<Mapped> mapKnownNode(const NodeContext& ctx)
{
    const std::string& domain = ctx.node().domain();
    if (!domain.empty() && domain != "ai.onnx")
        return std::nullopt;
    for (auto family : {mapConvLike, mapLayout, mapElementWise, mapCompute})
        if (auto m = family(ctx))
            return m;
    return std::nullopt;
}

} // namespace costscope::onnx_import
