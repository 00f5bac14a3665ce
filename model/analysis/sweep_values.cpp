// SPDX-License-Identifier: MIT
#include "analysis/sweep.h"

#include <charconv>

namespace costscope {

namespace {

std::optional<std::int64_t> parseInt(std::string_view s)
{
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

Diagnostic bad(std::string_view text, const std::string& what)
{
    return Diagnostic::error("values '" + std::string(text) + "': " + what);
}

Result<std::vector<std::int64_t>> parseRange(std::string_view text)
{
    const auto c1 = text.find(':');
    const auto c2 = text.find(':', c1 + 1);
    if (c2 == std::string_view::npos || text.find(':', c2 + 1) != std::string_view::npos)
        return bad(text, "a range is START:END:xFACTOR or START:END:+STEP");
    auto start = parseInt(text.substr(0, c1));
    auto end = parseInt(text.substr(c1 + 1, c2 - c1 - 1));
    const std::string_view stepText = text.substr(c2 + 1);
    if (!start || !end || *start < 0 || *end < *start)
        return bad(text, "START and END must be integers with 0 <= START <= END");
    if (stepText.size() < 2 || (stepText[0] != 'x' && stepText[0] != '+'))
        return bad(text, "the step must be xFACTOR (geometric) or +STEP (arithmetic)");
    auto step = parseInt(stepText.substr(1));
    const bool geometric = stepText[0] == 'x';
    if (!step || *step < (geometric ? 2 : 1))
        return bad(text, geometric ? "the factor must be an integer >= 2" : "the step must be an integer >= 1");
    if (geometric && *start == 0)
        return bad(text, "a geometric range cannot start at 0");
    std::vector<std::int64_t> out;
    for (std::int64_t v = *start; v <= *end;) {
        if (out.size() == kMaxSweepValues)
            return bad(text, "more than " + std::to_string(kMaxSweepValues) + " values");
        out.push_back(v);
        std::int64_t next = 0;
        if (geometric ? __builtin_mul_overflow(v, *step, &next) : __builtin_add_overflow(v, *step, &next))
            break;
        v = next;
    }
    return out;
}

} // namespace

Result<std::vector<std::int64_t>> parseSweepValues(std::string_view text)
{
    if (text.empty())
        return bad(text, "no values");
    if (text.find(':') != std::string_view::npos)
        return parseRange(text);
    std::vector<std::int64_t> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto comma = text.find(',', pos);
        const std::string_view item = text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos);
        auto v = parseInt(item);
        if (!v || *v < 0)
        {
            // Built with append: GCC 12 at -O3 reports a false -Wrestrict on "lit" + std::string&&.
            std::string msg;
            msg.append("'").append(item).append("' is not a non-negative integer");
            return bad(text, msg);
        }
        if (out.size() == kMaxSweepValues)
            return bad(text, "more than " + std::to_string(kMaxSweepValues) + " values");
        out.push_back(*v);
        if (comma == std::string_view::npos)
            break;
        pos = comma + 1;
    }
    return out;
}

} // namespace costscope
