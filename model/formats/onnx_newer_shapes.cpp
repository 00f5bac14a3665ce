// SPDX-License-Identifier: MIT
#include "formats/onnx_newer_shapes.h"

#include <algorithm>
#include <cmath>

namespace costscope::onnx_import {

namespace {
using Ints = std::vector<std::int64_t>;

// The axes attribute made non-negative, or every axis; nullopt when one is out of range.
std::optional<Ints> axesOf(const NodeContext& ctx, std::size_t rank)
{
    Ints axes;
    if (auto given = ctx.attrInts("axes")) {
        for (std::int64_t a : *given) {
            const std::int64_t n = a < 0 ? a + static_cast<std::int64_t>(rank) : a;
            if (n < 0 || n >= static_cast<std::int64_t>(rank))
                return std::nullopt;
            axes.push_back(n);
        }
        return axes;
    }
    for (std::size_t d = 0; d < rank; ++d)
        axes.push_back(static_cast<std::int64_t>(d));
    return axes;
}

bool staticDims(const Shape& s, const Ints& axes)
{
    return std::all_of(axes.begin(), axes.end(),
                       [&](auto a) { return s.dims[static_cast<std::size_t>(a)].isStatic(); });
}

std::optional<Shape> resize(const NodeContext& ctx, const Shape& in)
{
    auto axes = axesOf(ctx, in.rank());
    if (!axes || !staticDims(in, *axes))
        return std::nullopt;
    Shape out = in;
    auto dimOf = [&](std::size_t i) {
        return static_cast<double>(in.dims[static_cast<std::size_t>((*axes)[i])].value);
    };
    const ConstTensor* scalesTensor = ctx.hasInput(2) ? ctx.constInput(2) : nullptr;
    if (scalesTensor && !scalesTensor->shape.elements().value_or(0))
        scalesTensor = nullptr; // an empty scales tensor means "use sizes"
    if (scalesTensor) {
        auto scales = constDoubles(*scalesTensor);
        if (!scales || scales->size() != axes->size())
            return std::nullopt;
        for (std::size_t i = 0; i < axes->size(); ++i)
            out.dims[static_cast<std::size_t>((*axes)[i])] =
                Dim::fixed(static_cast<std::int64_t>(std::floor(dimOf(i) * (*scales)[i])));
        return out;
    }
    auto sizes = ctx.hasInput(3) ? ctx.constInputInts(3) : std::nullopt;
    if (!sizes || sizes->size() != axes->size())
        return std::nullopt;
    const std::string policy = ctx.attrString("keep_aspect_ratio_policy").value_or("stretch");
    double ratio = policy == "not_larger" ? INFINITY : 0;
    for (std::size_t i = 0; i < axes->size(); ++i) {
        const double r = static_cast<double>((*sizes)[i]) / dimOf(i);
        ratio = policy == "not_larger" ? std::min(ratio, r) : std::max(ratio, r);
    }
    for (std::size_t i = 0; i < axes->size(); ++i)
        out.dims[static_cast<std::size_t>((*axes)[i])] =
            Dim::fixed(policy == "stretch" ? (*sizes)[i] : static_cast<std::int64_t>(ratio * dimOf(i) + 0.5));
    return out;
}

std::optional<Shape> centerCropPad(const NodeContext& ctx, const Shape& in)
{
    auto axes = axesOf(ctx, in.rank());
    auto shape = ctx.constInputInts(1);
    if (!axes || !shape || shape->size() != axes->size())
        return std::nullopt;
    Shape out = in;
    for (std::size_t i = 0; i < axes->size(); ++i)
        out.dims[static_cast<std::size_t>((*axes)[i])] = Dim::fixed((*shape)[i]);
    return out;
}

std::optional<Shape> col2Im(const NodeContext& ctx, const Shape& in)
{
    auto image = ctx.constInputInts(1), block = ctx.constInputInts(2);
    if (!image || !block || in.rank() != 3 || !in.dims[1].isStatic())
        return std::nullopt;
    std::int64_t blockSize = 1;
    for (std::int64_t b : *block)
        blockSize *= b;
    if (blockSize <= 0)
        return std::nullopt;
    Shape out;
    out.dtype = in.dtype;
    out.dims = {in.dims[0], Dim::fixed(in.dims[1].value / blockSize)};
    for (std::int64_t d : *image)
        out.dims.push_back(Dim::fixed(d));
    return out;
}
} // namespace

std::optional<Shape> newerOpShape(const NodeContext& ctx)
{
    const Shape* in = ctx.inputShape(0);
    if (!in)
        return std::nullopt;
    const std::string& t = ctx.opType();
    if (t == "Resize")
        return resize(ctx, *in);
    if (t == "CenterCropPad")
        return centerCropPad(ctx, *in);
    if (t == "Col2Im")
        return col2Im(ctx, *in);
    if (t == "GroupNormalization")
        return *in;
    return std::nullopt;
}

} // namespace costscope::onnx_import
