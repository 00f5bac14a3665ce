// SPDX-License-Identifier: MIT
#include "edit/edit_parse.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cstdlib>

namespace costscope::edit {
namespace {

using Json = nlohmann::json;

std::string trim(const std::string& s)
{
    std::size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return s.substr(a, b - a);
}

std::optional<std::int64_t> parseInt(const std::string& s)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<double> parseDouble(const std::string& s)
{
    if (s.empty())
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
        return std::nullopt;
    return v;
}

// "[1, 2]", "1,2" or "[]" into its trimmed items; quotes around an item are dropped.
std::vector<std::string> listItems(std::string s)
{
    s = trim(s);
    if (s.size() >= 2 && s.front() == '[' && s.back() == ']')
        s = s.substr(1, s.size() - 2);
    std::vector<std::string> items;
    if (trim(s).empty())
        return items;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = s.find(',', start);
        std::string item = trim(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (item.size() >= 2 && item.front() == '"' && item.back() == '"')
            item = item.substr(1, item.size() - 2);
        items.push_back(item);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return items;
}

Diagnostic expected(const std::string& what, const std::string& text)
{
    return Diagnostic::error("expected " + what + ", got \"" + text + "\"");
}

// Every item of a list read with `parse` (parseInt, parseDouble), or what was expected.
template <class Parse>
Result<AttrValue> parseList(const std::string& text, Parse parse, const std::string& what)
{
    std::vector<typename decltype(parse(std::string{}))::value_type> out;
    for (const std::string& item : listItems(text)) {
        auto v = parse(item);
        if (!v)
            return expected(what, text);
        out.push_back(*v);
    }
    return AttrValue{out};
}

Result<AttrValue> fromJson(const Json& j)
{
    if (j.is_null())
        return AttrValue{};
    if (j.is_boolean())
        return AttrValue{j.get<bool>()};
    if (j.is_number_integer())
        return AttrValue{j.get<std::int64_t>()};
    if (j.is_number())
        return AttrValue{j.get<double>()};
    if (j.is_string())
        return AttrValue{j.get<std::string>()};
    if (j.is_array() && !j.empty()) {
        if (std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_number_integer(); }))
            return AttrValue{j.get<std::vector<std::int64_t>>()};
        if (std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_number(); }))
            return AttrValue{j.get<std::vector<double>>()};
        if (std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_string(); }))
            return AttrValue{j.get<std::vector<std::string>>()};
    }
    if (j.is_array())
        return AttrValue{std::vector<std::int64_t>{}};
    return AttrValue{RawJson{j.dump()}};
}

} // namespace

Result<Shape> parseShape(const std::string& input)
{
    const std::string text = trim(input);
    const std::size_t open = text.find('[');
    if (open == std::string::npos || text.back() != ']')
        return Diagnostic::error("shape \"" + text + "\": expected DTYPE[dim,...] such as F32[batch,784]");
    Shape s;
    const std::string dtype = trim(text.substr(0, open));
    if (!dtype.empty()) {
        auto t = parseDType(dtype);
        if (!t)
            return Diagnostic::error("shape \"" + text + "\": unknown dtype " + dtype);
        s.dtype = *t;
    }
    for (const std::string& item : listItems(text.substr(open))) {
        if (item.empty())
            return Diagnostic::error("shape \"" + text + "\": empty dim");
        if (auto v = parseInt(item)) {
            if (*v < 0)
                return Diagnostic::error("shape \"" + text + "\": negative dim " + item);
            s.dims.push_back(Dim::fixed(*v));
        } else if (std::isalpha(static_cast<unsigned char>(item[0])) || item[0] == '_') {
            s.dims.push_back(Dim::named(item));
        } else {
            return Diagnostic::error("shape \"" + text + "\": dim \"" + item + "\" is neither a size nor a symbol");
        }
    }
    if (s.rank() > kMaxRank)
        return Diagnostic::error("shape \"" + text + "\": rank " + std::to_string(s.rank()) + " is over " +
                                 std::to_string(kMaxRank));
    if (s.overflows())
        return Diagnostic::error("shape \"" + text + "\": its byte size overflows 64 bits");
    return s;
}

Result<AttrValue> parseAttrValue(const AttrValue& like, const std::string& input)
{
    const std::string text = trim(input);
    struct Visitor {
        const std::string& text;
        Result<AttrValue> operator()(std::monostate) const
        {
            const Json j = Json::parse(text, nullptr, false);
            if (j.is_discarded())
                return AttrValue{text};
            return fromJson(j);
        }
        Result<AttrValue> operator()(bool) const
        {
            if (text == "true" || text == "1")
                return AttrValue{true};
            if (text == "false" || text == "0")
                return AttrValue{false};
            return expected("true or false", text);
        }
        Result<AttrValue> operator()(std::int64_t) const
        {
            if (auto v = parseInt(text))
                return AttrValue{*v};
            return expected("an integer", text);
        }
        Result<AttrValue> operator()(double) const
        {
            if (auto v = parseDouble(text))
                return AttrValue{*v};
            return expected("a number", text);
        }
        Result<AttrValue> operator()(const std::string&) const
        {
            if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
                return AttrValue{text.substr(1, text.size() - 2)};
            return AttrValue{text};
        }
        Result<AttrValue> operator()(const std::vector<std::int64_t>&) const
        {
            return parseList(text, parseInt, "a list of integers such as [1,2]");
        }
        Result<AttrValue> operator()(const std::vector<double>&) const
        {
            return parseList(text, parseDouble, "a list of numbers such as [0.5,1]");
        }
        Result<AttrValue> operator()(const std::vector<std::string>&) const { return AttrValue{listItems(text)}; }
        Result<AttrValue> operator()(const RawJson&) const
        {
            const Json j = Json::parse(text, nullptr, false);
            if (j.is_discarded())
                return expected("JSON", text);
            return AttrValue{RawJson{j.dump()}};
        }
    };
    return std::visit(Visitor{text}, like);
}

} // namespace costscope::edit
