// SPDX-License-Identifier: MIT
// Layout ops. Shape-like inputs that are constants (Reshape's shape, Slice's starts/ends, Pad's pads, ...) fold
// into attributes and the input is dropped; inputs computed at run time stay inputs.
#include "formats/onnx_ops.h"

#include <numeric>

namespace costscope::onnx_import {

namespace {
using Ints = std::vector<std::int64_t>;

Op withAttrs(OpKind kind, Attrs a)
{
    return Op::make(kind, std::move(a));
}

// Attribute before opset `inputSince`, constant input `index` from it on; nullopt when neither is known.
std::optional<Ints> attrOrConstInput(const NodeContext& ctx, const std::string& name, int index)
{
    if (auto v = ctx.attrInts(name))
        return v;
    return ctx.constInputInts(index);
}

std::int64_t normAxis(std::int64_t axis, const Shape* s)
{
    return axis < 0 && s ? axis + static_cast<std::int64_t>(s->rank()) : axis;
}

// ONNX Reshape targets use 0 for "copy the input dim" (unless allowzero) and -1 for "whatever is left".
Ints resolveReshape(const NodeContext& ctx, Ints target, bool allowZero)
{
    const Shape* out = ctx.outputShape(0);
    if (out && out->isStatic() && out->rank() == target.size()) {
        Ints dims;
        for (const Dim& d : out->dims)
            dims.push_back(d.value);
        return dims;
    }
    const Shape* in = ctx.inputShape(0);
    for (std::size_t i = 0; i < target.size(); ++i)
        if (target[i] == 0 && !allowZero && in && i < in->rank() && in->dims[i].isStatic())
            target[i] = in->dims[i].value;
    return target;
}

Mapped mapReshape(const NodeContext& ctx)
{
    const bool allowZero = ctx.attrInt("allowzero").value_or(0) != 0;
    Attrs a;
    auto target = attrOrConstInput(ctx, "shape", 1);
    if (target) {
        a.set("new_shape", resolveReshape(ctx, *target, allowZero));
        if (allowZero)
            a.set("allowzero", true);
        return single(withAttrs(OpKind::Reshape, std::move(a)), {0});
    }
    if (const Shape* out = ctx.outputShape(0); out && out->isStatic()) {
        Ints dims;
        for (const Dim& d : out->dims)
            dims.push_back(d.value);
        a.set("new_shape", dims);
    }
    return single(withAttrs(OpKind::Reshape, std::move(a)), {0, 1});
}

Mapped mapAxesOp(const NodeContext& ctx, OpKind kind)
{
    Attrs a;
    if (auto axes = attrOrConstInput(ctx, "axes", 1)) {
        a.set("axes", *axes);
        return single(withAttrs(kind, std::move(a)), {0});
    }
    if (ctx.hasInput(1))
        return single(withAttrs(kind, std::move(a)), {0, 1});
    if (kind == OpKind::Unsqueeze)
        return ctx.error("Unsqueeze needs axes (an attribute or a constant input)");
    return single(withAttrs(kind, std::move(a)), {0});
}

Mapped mapSlice(const NodeContext& ctx)
{
    Attrs a;
    if (ctx.opset() < 10) {
        auto starts = ctx.attrInts("starts");
        auto ends = ctx.attrInts("ends");
        if (!starts || !ends)
            return ctx.error("Slice needs starts and ends");
        a.set("starts", *starts);
        a.set("ends", *ends);
        Ints axes(starts->size());
        std::iota(axes.begin(), axes.end(), 0);
        a.set("axes", ctx.attrInts("axes").value_or(axes));
        a.set("steps", Ints(starts->size(), 1));
        return single(withAttrs(OpKind::Slice, std::move(a)), {0});
    }
    auto starts = ctx.constInputInts(1);
    auto ends = ctx.constInputInts(2);
    auto axes = ctx.hasInput(3) ? ctx.constInputInts(3) : std::optional<Ints>(Ints{});
    auto steps = ctx.hasInput(4) ? ctx.constInputInts(4) : std::optional<Ints>(Ints{});
    if (!starts || !ends || !axes || !steps) {
        std::vector<int> inputs;
        for (int i = 0; i < ctx.inputCount(); ++i)
            inputs.push_back(i);
        return single(withAttrs(OpKind::Slice, std::move(a)), inputs);
    }
    if (axes->empty()) {
        axes->resize(starts->size());
        std::iota(axes->begin(), axes->end(), 0);
    }
    if (steps->empty())
        steps->assign(starts->size(), 1);
    if (ends->size() != starts->size() || axes->size() != starts->size() || steps->size() != starts->size())
        return ctx.error("starts, ends, axes and steps must have the same length");
    a.set("starts", *starts);
    a.set("ends", *ends);
    a.set("axes", *axes);
    a.set("steps", *steps);
    return single(withAttrs(OpKind::Slice, std::move(a)), {0});
}

// The sizes shape inference found for the Split outputs; nullopt unless all are known.
std::optional<Ints> statedSplitSizes(const NodeContext& ctx, std::int64_t axis)
{
    Ints sizes;
    for (int i = 0; i < ctx.outputCount(); ++i) {
        const Shape* s = ctx.outputShape(i);
        if (!s || axis < 0 || static_cast<std::size_t>(axis) >= s->rank() || !s->dims[axis].isStatic())
            return std::nullopt;
        sizes.push_back(s->dims[axis].value);
    }
    return sizes;
}

// The size of each Split output: the split attribute or constant input, else (a computed split input) the sizes
// shape inference found, else equal parts (the last one smaller when the dim does not divide), else the sizes shape
// inference found.
std::optional<Ints> splitSizes(const NodeContext& ctx, std::int64_t axis)
{
    if (auto s = attrOrConstInput(ctx, "split", 1))
        return s;
    if (ctx.opset() >= 13 && ctx.hasInput(1)) // computed sizes: equal parts would be a guess
        return statedSplitSizes(ctx, axis);
    const auto parts = static_cast<std::int64_t>(ctx.outputCount());
    const Shape* in = ctx.inputShape(0);
    if (in && axis >= 0 && static_cast<std::size_t>(axis) < in->rank() && in->dims[axis].isStatic()) {
        const std::int64_t dim = in->dims[axis].value;
        const std::int64_t chunk = (dim + parts - 1) / parts;
        Ints sizes;
        for (std::int64_t i = 0; i < parts; ++i)
            sizes.push_back(std::max<std::int64_t>(0, std::min(chunk, dim - i * chunk)));
        return sizes;
    }
    return statedSplitSizes(ctx, axis);
}

Mapped mapSplit(const NodeContext& ctx)
{
    const std::int64_t axis = normAxis(ctx.attrInt("axis").value_or(0), ctx.inputShape(0));
    auto sizes = splitSizes(ctx, axis);
    if (!sizes)
        return ctx.error("cannot tell the split sizes (no split given and the input's dim " + std::to_string(axis)
                         + " is not known)");
    if (sizes->size() != static_cast<std::size_t>(ctx.outputCount()))
        return ctx.error("split has " + std::to_string(sizes->size()) + " sizes for "
                         + std::to_string(ctx.outputCount()) + " outputs");
    std::vector<MappedOp> out;
    std::int64_t start = 0;
    for (std::size_t i = 0; i < sizes->size(); ++i) {
        Attrs a;
        a.set("axis", axis);
        a.set("start", start);
        a.set("len", (*sizes)[i]);
        start += (*sizes)[i];
        out.push_back(MappedOp{withAttrs(OpKind::Narrow, std::move(a)), {InputRef{0, -1}}, static_cast<int>(i)});
    }
    return out;
}

// Opset 18's axes name the dims the pads are for; constant pads and axes of a known rank are written out for every
// dim, so that backends see the opset 11 form. Computed axes stay an input (the last one, axes_input).
std::optional<Ints> padsForEveryDim(const Ints& pads, const Ints& axes, const Shape* in)
{
    if (!in || pads.size() != 2 * axes.size())
        return std::nullopt;
    const auto rank = static_cast<std::int64_t>(in->rank());
    Ints full(2 * in->rank(), 0);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const std::int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
        if (axis < 0 || axis >= rank)
            return std::nullopt;
        full[static_cast<std::size_t>(axis)] = pads[i];
        full[static_cast<std::size_t>(axis + rank)] = pads[axes.size() + i];
    }
    return full;
}

Mapped mapPad(const NodeContext& ctx)
{
    Attrs a;
    a.set("mode", ctx.attrString("mode").value_or("constant"));
    std::vector<int> inputs{0};
    auto pads = attrOrConstInput(ctx, "pads", 1);
    const auto axes = ctx.hasInput(3) ? ctx.constInputInts(3) : std::nullopt;
    if (pads && axes) {
        if (auto full = padsForEveryDim(*pads, *axes, ctx.inputShape(0)))
            pads = full;
        else
            a.set("axes", *axes);
    }
    if (pads)
        a.set("pads", *pads);
    else
        inputs.push_back(1);
    std::optional<double> value = ctx.opset() < 11 ? ctx.attrFloat("value") : ctx.constInputScalar(2);
    if (ctx.opset() >= 11 && ctx.hasInput(2) && !value)
        inputs = {0, 1, 2}; // a computed pad value keeps its position, so the pads input stays too
    else
        a.set("value", value.value_or(0.0));
    if (ctx.hasInput(3) && !axes) {
        inputs.push_back(3);
        a.set("axes_input", true);
    } else if (axes && !pads) {
        a.set("axes", *axes);
    }
    return single(withAttrs(OpKind::Pad, std::move(a)), inputs);
}

Mapped mapTranspose(const NodeContext& ctx)
{
    Attrs a;
    if (auto perm = ctx.attrInts("perm")) {
        a.set("perm", *perm);
    } else if (const Shape* in = ctx.inputShape(0)) {
        Ints perm(in->rank());
        std::iota(perm.rbegin(), perm.rend(), 0);
        a.set("perm", perm);
    }
    return single(withAttrs(OpKind::Transpose, std::move(a)), {0});
}

Mapped mapExpand(const NodeContext& ctx)
{
    Attrs a;
    if (auto target = ctx.constInputInts(1)) {
        a.set("target_shape", *target);
        return single(withAttrs(OpKind::Expand, std::move(a)), {0});
    }
    return single(withAttrs(OpKind::Expand, std::move(a)), {0, 1});
}

Mapped mapAxisOp(const NodeContext& ctx, OpKind kind, std::int64_t dflt, std::vector<int> inputs)
{
    Attrs a;
    a.set("axis", ctx.attrInt("axis").value_or(dflt));
    return single(withAttrs(kind, std::move(a)), std::move(inputs));
}
} // namespace

std::optional<Mapped> mapLayout(const NodeContext& ctx)
{
    const std::string& t = ctx.opType();
    if (t == "Reshape")
        return mapReshape(ctx);
    if (t == "Unsqueeze")
        return mapAxesOp(ctx, OpKind::Unsqueeze);
    if (t == "Squeeze")
        return mapAxesOp(ctx, OpKind::Squeeze);
    if (t == "Slice")
        return mapSlice(ctx);
    if (t == "Split") {
        // Sizes known only at run time (num_outputs or equal parts of a computed dim): the ONNX op itself, one
        // node per output, run by name.
        if (!splitSizes(ctx, normAxis(ctx.attrInt("axis").value_or(0), ctx.inputShape(0))))
            return std::nullopt;
        return mapSplit(ctx);
    }
    if (t == "Pad")
        return mapPad(ctx);
    if (t == "Transpose")
        return mapTranspose(ctx);
    if (t == "Expand")
        return mapExpand(ctx);
    if (t == "Concat") {
        if (!ctx.attrInt("axis"))
            return ctx.error("the required attribute axis is missing");
        std::vector<int> inputs(static_cast<std::size_t>(ctx.inputCount()));
        std::iota(inputs.begin(), inputs.end(), 0);
        return mapAxisOp(ctx, OpKind::Concat, 0, inputs);
    }
    if (t == "Flatten")
        return mapAxisOp(ctx, OpKind::Flatten, 1, {0});
    if (t == "Gather")
        return mapAxisOp(ctx, OpKind::Gather, 0, {0, 1});
    if (t == "GatherElements")
        return mapAxisOp(ctx, OpKind::GatherElements, 0, {0, 1});
    if (t == "Tile") {
        Attrs a;
        if (auto r = ctx.constInputInts(1))
            a.set("repeats", *r);
        return single(withAttrs(OpKind::Tile, std::move(a)), {0, 1});
    }
    if (t == "Identity")
        return single(Op::make(OpKind::Identity), {0});
    if (t == "Where")
        return single(Op::make(OpKind::Where), {0, 1, 2});
    return std::nullopt;
}

} // namespace costscope::onnx_import
