// SPDX-License-Identifier: MIT
#include "cli/args.h"

#include <algorithm>
#include <charconv>
#include <exception>

namespace costscope::cli {

std::optional<Args> Args::parse(const std::vector<std::string>& argv, const std::set<std::string>& flags,
                                const std::set<std::string>& options, std::string* error)
{
    Args a;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
            a.m_positional.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2);
        std::optional<std::string> value;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (flags.count(name) && !value) {
            a.m_flags.insert(name);
        } else if (options.count(name)) {
            if (!value) {
                if (i + 1 >= argv.size()) {
                    *error = "--" + name + " needs a value";
                    return std::nullopt;
                }
                value = argv[++i];
            }
            a.m_options[name].push_back(*value);
        } else {
            *error = "unknown option --" + name;
            return std::nullopt;
        }
    }
    return a;
}

std::optional<std::string> Args::option(const std::string& name) const
{
    auto it = m_options.find(name);
    if (it == m_options.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

std::vector<std::string> Args::options(const std::string& name) const
{
    auto it = m_options.find(name);
    return it == m_options.end() ? std::vector<std::string>{} : it->second;
}

std::optional<std::int64_t> parseInt(std::string_view s)
{
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::vector<std::string> splitCommas(std::string_view s)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const auto comma = std::min(s.find(',', start), s.size());
        items.emplace_back(s.substr(start, comma - start));
        if (comma == s.size())
            return items;
        start = comma + 1;
    }
}

std::optional<double> parseDouble(const std::string& s)
{
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        return used == s.size() ? std::optional<double>(v) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

} // namespace costscope::cli
