// SPDX-License-Identifier: MIT
#include "ir/attribute.h"

#include <algorithm>
#include <sstream>

namespace costscope {

void Attrs::set(const std::string& key, AttrValue v)
{
    for (auto& e : m_entries)
        if (e.first == key) {
            e.second = std::move(v);
            return;
        }
    m_entries.emplace_back(key, std::move(v));
}

const AttrValue* Attrs::find(const std::string& key) const
{
    for (const auto& e : m_entries)
        if (e.first == key)
            return &e.second;
    return nullptr;
}

void Attrs::erase(const std::string& key)
{
    std::erase_if(m_entries, [&](const Entry& e) { return e.first == key; });
}

std::optional<std::int64_t> Attrs::getInt(const std::string& key) const
{
    const AttrValue* v = find(key);
    if (!v)
        return std::nullopt;
    if (auto i = std::get_if<std::int64_t>(v))
        return *i;
    if (auto b = std::get_if<bool>(v))
        return *b ? 1 : 0;
    return std::nullopt;
}

std::optional<double> Attrs::getDouble(const std::string& key) const
{
    const AttrValue* v = find(key);
    if (!v)
        return std::nullopt;
    if (auto d = std::get_if<double>(v))
        return *d;
    if (auto i = std::get_if<std::int64_t>(v))
        return static_cast<double>(*i);
    return std::nullopt;
}

std::optional<std::string> Attrs::getString(const std::string& key) const
{
    const AttrValue* v = find(key);
    if (!v)
        return std::nullopt;
    if (auto s = std::get_if<std::string>(v))
        return *s;
    return std::nullopt;
}

std::optional<std::vector<std::int64_t>> Attrs::getInts(const std::string& key) const
{
    const AttrValue* v = find(key);
    if (!v)
        return std::nullopt;
    if (auto l = std::get_if<std::vector<std::int64_t>>(v))
        return *l;
    if (auto i = std::get_if<std::int64_t>(v))
        return std::vector<std::int64_t>{*i};
    return std::nullopt;
}

std::optional<bool> Attrs::getBool(const std::string& key) const
{
    const AttrValue* v = find(key);
    if (!v)
        return std::nullopt;
    if (auto b = std::get_if<bool>(v))
        return *b;
    if (auto i = std::get_if<std::int64_t>(v))
        return *i != 0;
    return std::nullopt;
}

namespace {
template <class T>
std::string joinList(const std::vector<T>& v)
{
    std::ostringstream os;
    os << '[';
    for (std::size_t i = 0; i < v.size(); ++i)
        os << (i ? "," : "") << v[i];
    os << ']';
    return os.str();
}
} // namespace

std::string attrToString(const AttrValue& v)
{
    struct Visitor {
        std::string operator()(std::monostate) const { return "null"; }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const
        {
            std::ostringstream os;
            os << d;
            return os.str();
        }
        std::string operator()(const std::string& s) const { return s; }
        std::string operator()(const std::vector<std::int64_t>& l) const { return joinList(l); }
        std::string operator()(const std::vector<double>& l) const { return joinList(l); }
        std::string operator()(const std::vector<std::string>& l) const { return joinList(l); }
        std::string operator()(const RawJson& r) const { return r.text; }
    };
    return std::visit(Visitor{}, v);
}

} // namespace costscope
