// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

#include <algorithm>

namespace costscope::shape_rules {

namespace {
std::string listText(const std::vector<std::int64_t>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

// Product of dims; derived symbol for symbolic parts; nullopt on overflow.
std::optional<Dim> product(const std::vector<Dim>& dims, std::size_t from, std::size_t to)
{
    Dim acc = Dim::fixed(1);
    for (std::size_t i = from; i < to; ++i) {
        auto m = mulDims(acc, dims[i]);
        if (!m)
            return std::nullopt;
        acc = *m;
    }
    return acc;
}

// The size a -1 entry stands for: input elements over the other entries, symbols carried along.
Result<Dim> inferredEntry(const InferInput& x, const Shape& in, const std::vector<Dim>& known)
{
    std::int64_t inStatic = 1;
    std::int64_t outStatic = 1;
    std::vector<std::string> symbols;
    for (const Dim& d : in.dims) {
        if (!d.isStatic())
            symbols.push_back(d.symbol);
        else if (__builtin_mul_overflow(inStatic, d.value, &inStatic))
            return x.fail("input " + in.toString() + " has more elements than 64 bits count");
    }
    for (const Dim& d : known) {
        if (!d.isStatic()) {
            auto it = std::find(symbols.begin(), symbols.end(), d.symbol);
            if (it == symbols.end())
                return derivedDim("reshape", Dim::named(in.toString()));
            symbols.erase(it);
        } else if (__builtin_mul_overflow(outStatic, d.value, &outStatic)) {
            return x.fail("new_shape has more elements than 64 bits count");
        }
    }
    if (outStatic == 0)
        return x.fail("-1 cannot be inferred next to a zero-sized dim");
    if (inStatic % outStatic != 0) {
        if (symbols.empty())
            return x.fail("cannot reshape " + in.toString() + " into a multiple of " + std::to_string(outStatic)
                          + " elements");
        return derivedDim("reshape", Dim::named(in.toString()));
    }
    Dim acc = Dim::fixed(inStatic / outStatic);
    for (const std::string& s : symbols)
        acc = *mulDims(Dim::named(s), acc);
    return acc;
}

Result<Shape> reshape(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto target = x.intsFrom("new_shape", 1);
    if (!target)
        return x.unknowable("needs new_shape (an attribute or a constant input)");
    const bool allowZero = x.flag("allowzero", false);
    std::vector<Dim> dims;
    std::optional<std::size_t> hole;
    for (std::size_t i = 0; i < target->size(); ++i) {
        const std::int64_t v = (*target)[i];
        if (v == -1 && !hole) {
            hole = i;
            dims.push_back(Dim::fixed(1));
        } else if (v == 0 && !allowZero) {
            if (i >= in.rank())
                return x.fail("new_shape entry " + std::to_string(i) + " copies a dim the input " + in.toString()
                              + " does not have");
            dims.push_back(in.dims[i]);
        } else if (v < 0 || v > kMaxDim) {
            return x.fail("new_shape " + listText(*target) + " has a bad entry " + std::to_string(v));
        } else {
            dims.push_back(Dim::fixed(v));
        }
    }
    if (hole) {
        std::vector<Dim> known = dims;
        known.erase(known.begin() + static_cast<std::ptrdiff_t>(*hole));
        auto d = inferredEntry(x, in, known);
        if (!d)
            return d.error();
        dims[*hole] = *d;
    }
    Shape out{dims, in.dtype};
    if (in.isStatic() && out.isStatic() && in.elements() != out.elements())
        return x.fail("cannot reshape " + in.toString() + " to " + out.toString() + " (element counts differ)");
    return out;
}

Result<Shape> transpose(const InferInput& x)
{
    const Shape& in = x.in[0];
    std::vector<std::int64_t> perm(in.rank());
    for (std::size_t i = 0; i < perm.size(); ++i)
        perm[i] = static_cast<std::int64_t>(perm.size() - 1 - i);
    perm = x.op.attrs.intsOr("perm", perm);
    if (perm.size() != in.rank())
        return x.fail("perm " + listText(perm) + " is not a permutation of the " + std::to_string(in.rank())
                      + " dims of " + in.toString());
    std::vector<bool> used(in.rank(), false);
    Shape out{{}, in.dtype};
    for (std::int64_t p : perm) {
        auto a = normaliseAxis(p, in.rank());
        if (!a || used[*a])
            return x.fail("perm " + listText(perm) + " is not a permutation of the " + std::to_string(in.rank())
                          + " dims of " + in.toString());
        used[*a] = true;
        out.dims.push_back(in.dims[*a]);
    }
    return out;
}

Result<Shape> concat(const InferInput& x)
{
    auto axisAttr = x.op.attrs.getInt("axis");
    if (!axisAttr)
        return x.fail("attribute axis is missing");
    Shape out = x.in[0];
    auto axis = axisOrError(x, *axisAttr, out.rank());
    if (!axis)
        return axis.error();
    for (std::size_t i = 1; i < x.in.size(); ++i) {
        const Shape& s = x.in[i];
        if (s.rank() != out.rank())
            return x.fail("input " + std::to_string(i) + " " + s.toString() + " and input 0 " + x.in[0].toString()
                          + " differ in rank");
        for (std::size_t d = 0; d < out.rank(); ++d) {
            Dim& o = out.dims[d];
            if (d == *axis) {
                auto sum = addDims(o, s.dims[d]);
                if (!sum)
                    return x.fail("concatenated dim overflows (over 2^62)");
                o = *sum;
            } else if (o.isStatic() && s.dims[d].isStatic() && o.value != s.dims[d].value) {
                return x.fail("input " + std::to_string(i) + " " + s.toString() + " differs from "
                              + x.in[0].toString() + " in dim " + std::to_string(d));
            } else if (!o.isStatic()) {
                o = s.dims[d];
            }
        }
    }
    return out;
}

Result<Shape> expand(const InferInput& x)
{
    auto target = x.intsFrom("target_shape", 1);
    if (!target)
        return x.unknowable("needs target_shape (an attribute or a constant input)");
    Shape t;
    for (std::int64_t v : *target) {
        if (v < -1 || v > kMaxDim)
            return x.fail("target_shape " + listText(*target) + " has a bad entry " + std::to_string(v));
        t.dims.push_back(Dim::fixed(v == -1 ? 1 : v)); // -1 keeps the input's dim, as 1 does in broadcasting
    }
    return broadcast(x, x.in[0], t);
}

Result<Shape> squeeze(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto axes = x.intsFrom("axes", 1);
    std::vector<bool> drop(in.rank(), false);
    if (!axes) {
        for (std::size_t i = 0; i < in.rank(); ++i)
            drop[i] = in.dims[i].isStatic() && in.dims[i].value == 1;
    } else {
        for (std::int64_t a : *axes) {
            auto n = axisOrError(x, a, in.rank());
            if (!n)
                return n.error();
            if (in.dims[*n].isStatic() && in.dims[*n].value != 1)
                return x.fail("cannot squeeze dim " + std::to_string(*n) + " of size " + in.dims[*n].toString());
            drop[*n] = true;
        }
    }
    Shape out{{}, in.dtype};
    for (std::size_t i = 0; i < in.rank(); ++i)
        if (!drop[i])
            out.dims.push_back(in.dims[i]);
    return out;
}

Result<Shape> unsqueeze(const InferInput& x)
{
    const Shape& in = x.in[0];
    auto axes = x.intsFrom("axes", 1);
    if (!axes)
        return x.unknowable("needs axes (an attribute or a constant input)");
    const std::size_t rank = in.rank() + axes->size();
    std::vector<bool> inserted(rank, false);
    for (std::int64_t a : *axes) {
        auto n = axisOrError(x, a, rank);
        if (!n)
            return n.error();
        if (inserted[*n])
            return x.fail("axis " + std::to_string(a) + " is given twice");
        inserted[*n] = true;
    }
    Shape out{{}, in.dtype};
    std::size_t next = 0;
    for (std::size_t i = 0; i < rank; ++i)
        out.dims.push_back(inserted[i] ? Dim::fixed(1) : in.dims[next++]);
    return out;
}

Result<Shape> flatten(const InferInput& x)
{
    const Shape& in = x.in[0];
    const std::int64_t axisAttr = x.op.attrs.intOr("axis", 1);
    const auto r = static_cast<std::int64_t>(in.rank());
    if (axisAttr < -r || axisAttr > r)
        return x.fail("axis " + std::to_string(axisAttr) + " is out of range for rank " + std::to_string(r));
    const auto axis = static_cast<std::size_t>(axisAttr < 0 ? axisAttr + r : axisAttr);
    auto outer = product(in.dims, 0, axis);
    auto inner = product(in.dims, axis, in.rank());
    if (!outer || !inner)
        return x.fail("flattened dim overflows (over 2^62)");
    return Shape{{*outer, *inner}, in.dtype};
}
} // namespace

Result<Shape> inferLayout(const InferInput& x)
{
    switch (x.op.kind) {
    case OpKind::Reshape: return reshape(x);
    case OpKind::Transpose: return transpose(x);
    case OpKind::Concat: return concat(x);
    case OpKind::Expand: return expand(x);
    case OpKind::Squeeze: return squeeze(x);
    case OpKind::Unsqueeze: return unsqueeze(x);
    default: return flatten(x);
    }
}

} // namespace costscope::shape_rules
