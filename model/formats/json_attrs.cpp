// SPDX-License-Identifier: MIT
#include "formats/json_attrs.h"

#include <algorithm>
#include <tuple>

namespace costscope {

AttrValue attrFromJson(const OJson& v)
{
    if (v.is_null())
        return std::monostate{};
    if (v.is_boolean())
        return v.get<bool>();
    if (v.is_number_integer() && (v.is_number_unsigned() ? v.get<std::uint64_t>() <= INT64_MAX : true))
        return v.get<std::int64_t>();
    if (v.is_number_float())
        return v.get<double>();
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_array()) {
        auto allInts = std::all_of(v.begin(), v.end(), [](const OJson& e) {
            return e.is_number_integer() && (!e.is_number_unsigned() || e.get<std::uint64_t>() <= INT64_MAX);
        });
        if (allInts)
            return v.get<std::vector<std::int64_t>>();
        if (std::all_of(v.begin(), v.end(), [](const OJson& e) { return e.is_number(); }))
            return v.get<std::vector<double>>();
        if (std::all_of(v.begin(), v.end(), [](const OJson& e) { return e.is_string(); }))
            return v.get<std::vector<std::string>>();
    }
    return RawJson{v.dump()};
}

OJson attrToJson(const AttrValue& v)
{
    struct Visitor {
        OJson operator()(std::monostate) const { return nullptr; }
        OJson operator()(bool b) const { return b; }
        OJson operator()(std::int64_t i) const { return i; }
        OJson operator()(double d) const { return d; }
        OJson operator()(const std::string& s) const { return s; }
        OJson operator()(const std::vector<std::int64_t>& l) const { return l; }
        OJson operator()(const std::vector<double>& l) const { return l; }
        OJson operator()(const std::vector<std::string>& l) const { return l; }
        OJson operator()(const RawJson& r) const { return OJson::parse(r.text); }
    };
    return std::visit(Visitor{}, v);
}

std::pair<int, int> lineColumnOf(const std::string& text, std::size_t byteOffset)
{
    int line = 1, col = 1;
    const std::size_t end = std::min(byteOffset, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

std::optional<std::size_t> nestingTooDeepAt(const std::string& text, int maxDepth)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::nullopt;
}

Diagnostic jsonSyntaxError(const std::string& text, const nlohmann::json::exception& e)
{
    std::string what = e.what();
    std::size_t at = 0;
    if (const auto* pe = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
        at = pe->byte > 0 ? pe->byte - 1 : 0;
        if (auto p = what.find("syntax error"); p != std::string::npos)
            what = what.substr(p);
    } else {
        if (auto p = what.find("] "); p != std::string::npos)
            what = what.substr(p + 2);
        // "number overflow parsing '1e999'": point at the first place that literal appears.
        if (auto q = what.find('\''); q != std::string::npos) {
            const std::string literal = what.substr(q + 1, what.rfind('\'') - q - 1);
            at = std::min(text.find(literal), text.size());
        }
    }
    Diagnostic d = Diagnostic::error(text.empty() ? "file is empty" : "invalid JSON: " + what);
    std::tie(d.line, d.column) = lineColumnOf(text, at);
    return d;
}

Diagnostic jsonNestingError(const std::string& text, std::size_t at)
{
    Diagnostic d = Diagnostic::error("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    std::tie(d.line, d.column) = lineColumnOf(text, at);
    return d;
}

} // namespace costscope
