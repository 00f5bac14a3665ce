// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

#include <cstring>

namespace costscope::shape_rules {

Diagnostic InferInput::fail(const std::string& msg) const
{
    return Diagnostic::error(label() + ": " + msg);
}

Diagnostic InferInput::unknowable(const std::string& msg) const
{
    Diagnostic d = fail(msg);
    d.severity = Diagnostic::Severity::Warning;
    return d;
}

std::optional<std::vector<std::int64_t>> InferInput::intsFrom(const std::string& key, std::size_t inputIndex) const
{
    if (auto v = op.attrs.getInts(key))
        return v;
    if (inputIndex < nodes.size())
        return intsOfNode(nodes[inputIndex]);
    return std::nullopt;
}

bool InferInput::flag(const std::string& key, bool dflt) const
{
    if (auto b = op.attrs.getBool(key))
        return *b;
    if (auto i = op.attrs.getInt(key))
        return *i != 0;
    return dflt;
}

std::optional<std::size_t> normaliseAxis(std::int64_t axis, std::size_t rank)
{
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= r)
        return std::nullopt;
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

Result<std::size_t> axisOrError(const InferInput& x, std::int64_t axis, std::size_t rank)
{
    auto a = normaliseAxis(axis, rank);
    if (!a)
        return x.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return *a;
}

Result<Shape> broadcast(const InferInput& x, const Shape& a, const Shape& b)
{
    const std::size_t rank = std::max(a.rank(), b.rank());
    Shape out;
    out.dtype = a.dtype;
    out.dims.resize(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        const Dim one = Dim::fixed(1);
        const Dim& da = i < rank - a.rank() ? one : a.dims[i - (rank - a.rank())];
        const Dim& db = i < rank - b.rank() ? one : b.dims[i - (rank - b.rank())];
        Dim& o = out.dims[i];
        if (da == db || (db.isStatic() && db.value == 1))
            o = da;
        else if (da.isStatic() && da.value == 1)
            o = db;
        else if (!da.isStatic())
            o = db; // symbol against a static (or another symbol): the other side decides
        else if (!db.isStatic())
            o = da;
        else
            return x.fail("cannot broadcast " + a.toString() + " with " + b.toString() + " (dim "
                          + std::to_string(i) + ": " + da.toString() + " vs " + db.toString() + ")");
    }
    return out;
}

namespace {
bool inRange(std::int64_t v)
{
    return v >= 0 && v <= kMaxDim;
}

std::string term(const Dim& d)
{
    const std::string s = d.toString();
    return s.find_first_of("+-*/(") == std::string::npos ? s : "(" + s + ")";
}
} // namespace

std::optional<Dim> addDims(const Dim& a, const Dim& b)
{
    if (a.isStatic() && b.isStatic()) {
        std::int64_t r = 0;
        if (__builtin_add_overflow(a.value, b.value, &r) || !inRange(r))
            return std::nullopt;
        return Dim::fixed(r);
    }
    if (a.isStatic() && a.value == 0)
        return b;
    if (b.isStatic() && b.value == 0)
        return a;
    return Dim::named(a.toString() + "+" + b.toString());
}

std::optional<Dim> mulDims(const Dim& a, const Dim& b)
{
    if (a.isStatic() && b.isStatic()) {
        std::int64_t r = 0;
        if (__builtin_mul_overflow(a.value, b.value, &r) || !inRange(r))
            return std::nullopt;
        return Dim::fixed(r);
    }
    if (a.isStatic() && a.value == 1)
        return b;
    if (b.isStatic() && b.value == 1)
        return a;
    if ((a.isStatic() && a.value == 0) || (b.isStatic() && b.value == 0))
        return Dim::fixed(0);
    return Dim::named(term(a) + "*" + term(b));
}

std::optional<Dim> offsetDim(const Dim& a, std::int64_t delta)
{
    if (a.isStatic()) {
        std::int64_t r = 0;
        if (__builtin_add_overflow(a.value, delta, &r) || !inRange(r))
            return std::nullopt;
        return Dim::fixed(r);
    }
    if (delta == 0)
        return a;
    return Dim::named(a.symbol + (delta > 0 ? "+" : "") + std::to_string(delta));
}

Dim derivedDim(const std::string& fn, const Dim& a)
{
    return Dim::named(fn + "(" + a.toString() + ")");
}

std::optional<std::vector<std::int64_t>> intsOfNode(const Node* n)
{
    if (!n || !n->data)
        return std::nullopt;
    const auto& bytes = *n->data;
    const std::size_t width = n->shape.dtype == DType::I64 ? 8 : n->shape.dtype == DType::I32 ? 4 : 0;
    if (width == 0 || bytes.size() % width != 0)
        return std::nullopt;
    std::vector<std::int64_t> out;
    out.reserve(bytes.size() / width);
    for (std::size_t off = 0; off < bytes.size(); off += width) {
        if (width == 8) {
            std::int64_t v = 0;
            std::memcpy(&v, bytes.data() + off, 8);
            out.push_back(v);
        } else {
            std::int32_t v = 0;
            std::memcpy(&v, bytes.data() + off, 4);
            out.push_back(v);
        }
    }
    return out;
}

} // namespace costscope::shape_rules
