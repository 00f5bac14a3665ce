// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

namespace costscope::shape_rules {

namespace {
Result<Shape> broadcastAll(const InferInput& x, std::size_t first)
{
    Shape acc = x.in[first];
    for (std::size_t i = first + 1; i < x.in.size(); ++i) {
        auto b = broadcast(x, acc, x.in[i]);
        if (!b)
            return b;
        acc = *b;
    }
    return acc;
}

Result<Shape> inferWhere(const InferInput& x)
{
    auto values = broadcast(x, x.in[1], x.in[2]);
    if (!values)
        return values;
    auto out = broadcast(x, x.in[0], *values);
    if (!out)
        return out;
    out->dtype = x.in[1].dtype;
    return out;
}

Result<Shape> inferCast(const InferInput& x)
{
    auto to = x.op.attrs.getString("to");
    if (!to)
        return x.fail("attribute \"to\" (a dtype name) is missing");
    auto t = parseDType(*to);
    if (!t)
        return x.fail("unknown dtype \"" + *to + "\"");
    Shape out = x.in[0];
    out.dtype = *t;
    return out;
}
} // namespace

// Binary, Compare, Sum, Where broadcast; Activation, Clip, Dropout, Identity keep their input's shape.
Result<Shape> inferElementwise(const InferInput& x)
{
    switch (x.op.kind) {
    case OpKind::Binary:
    case OpKind::Sum: return broadcastAll(x, 0);
    case OpKind::Compare: {
        auto out = broadcastAll(x, 0);
        if (out)
            out->dtype = DType::Bool;
        return out;
    }
    case OpKind::Where: return inferWhere(x);
    case OpKind::Cast: return inferCast(x);
    default: return x.in[0];
    }
}

} // namespace costscope::shape_rules
