// SPDX-License-Identifier: MIT
#include "ir/shape.h"

#include <algorithm>

namespace costscope {

std::optional<std::int64_t> Dim::resolve(const Bindings& b) const
{
    if (isStatic())
        return value;
    auto it = b.find(symbol);
    if (it == b.end())
        return std::nullopt;
    return it->second;
}

std::string Dim::toString() const
{
    return isStatic() ? std::to_string(value) : symbol;
}

Shape Shape::of(std::vector<std::int64_t> dims, DType t)
{
    Shape s;
    s.dtype = t;
    for (auto d : dims)
        s.dims.push_back(Dim::fixed(d));
    return s;
}

bool Shape::isStatic() const
{
    return std::all_of(dims.begin(), dims.end(), [](const Dim& d) { return d.isStatic(); });
}

std::optional<std::uint64_t> checkedMul(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

std::optional<std::uint64_t> Shape::elements(const Bindings& b) const
{
    std::uint64_t n = 1;
    for (const Dim& d : dims) {
        auto v = d.resolve(b);
        if (!v || *v < 0)
            return std::nullopt;
        auto m = checkedMul(n, static_cast<std::uint64_t>(*v));
        if (!m)
            return std::nullopt;
        n = *m;
    }
    return n;
}

std::optional<std::uint64_t> Shape::bytes(const Bindings& b) const
{
    auto n = elements(b);
    if (!n)
        return std::nullopt;
    return checkedMul(*n, byteSize(dtype));
}

bool Shape::overflows(const Bindings& b) const
{
    std::uint64_t n = byteSize(dtype);
    for (const Dim& d : dims) {
        auto v = d.resolve(b);
        if (!v)
            return false; // unbound: nothing to say yet
        if (*v < 0)
            continue;
        auto m = checkedMul(n, static_cast<std::uint64_t>(*v));
        if (!m)
            return true;
        n = *m;
    }
    return false;
}

std::vector<std::string> Shape::symbols() const
{
    std::vector<std::string> out;
    for (const Dim& d : dims)
        if (!d.isStatic() && std::find(out.begin(), out.end(), d.symbol) == out.end())
            out.push_back(d.symbol);
    return out;
}

std::string Shape::toString() const
{
    std::string s(dtypeName(dtype));
    s += '[';
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i)
            s += ',';
        s += dims[i].toString();
    }
    s += ']';
    return s;
}

} // namespace costscope
