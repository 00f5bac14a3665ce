// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

namespace costscope::shape_rules {

namespace {
Result<Shape> reduce(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto axes = x.intsFrom("axes", 1);
    const bool keep = x.flag("keep_dim", true);
    std::vector<bool> reduced(in.rank(), !axes); // no axes: reduce all (ONNX default)
    for (std::int64_t a : axes.value_or(std::vector<std::int64_t>{})) {
        auto n = axisOrError(x, a, in.rank());
        if (!n)
            return n.error();
        reduced[*n] = true;
    }
    const std::string kind = x.op.attrs.stringOr("op", "");
    Shape out{{}, kind == "ArgMax" || kind == "ArgMin" ? DType::I64 : in.dtype};
    for (std::size_t i = 0; i < in.rank(); ++i) {
        if (!reduced[i])
            out.dims.push_back(in.dims[i]);
        else if (keep)
            out.dims.push_back(Dim::fixed(1));
    }
    return out;
}

// Scale/bias-style inputs of a channel norm must have one value per channel (dim 1 of the input).
Result<Shape> channelNorm(const InferInput& x)
{
    const Shape& in = x.in[0];
    if (in.rank() < 2)
        return x.fail("input must be [N, C, ...], got " + in.toString());
    const Dim& c = in.dims[1];
    for (std::size_t i = 1; i < x.in.size(); ++i) {
        const Shape& p = x.in[i];
        if (p.rank() != 1)
            return x.fail("input " + std::to_string(i) + " must be 1-D [C], got " + p.toString());
        if (c.isStatic() && p.dims[0].isStatic() && c.value != p.dims[0].value)
            return x.fail("input has " + c.toString() + " channels, input " + std::to_string(i) + " has "
                          + p.dims[0].toString() + " values");
    }
    return in;
}

// Softmax, LayerNorm and RmsNorm work along one axis; the shape is kept, the axis must exist.
Result<Shape> alongAxis(const InferInput& x)
{
    const Shape& in = x.in[0];
    if (in.rank() == 0)
        return in;
    auto axis = axisOrError(x, x.op.attrs.intOr("axis", -1), in.rank());
    if (!axis)
        return axis.error();
    return in;
}
} // namespace

Result<Shape> inferNormalise(const InferInput& x)
{
    switch (x.op.kind) {
    case OpKind::Reduce: return reduce(x);
    case OpKind::BatchNorm:
    case OpKind::InstanceNorm: return channelNorm(x);
    case OpKind::Lrn: return x.in[0];
    default: return alongAxis(x);
    }
}

} // namespace costscope::shape_rules
