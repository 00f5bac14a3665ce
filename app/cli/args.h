// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace costscope::cli {

enum ExitCode { kOk = 0, kUsage = 2, kBadInput = 3, kCheckFailed = 4 };

// Command-line arguments of one subcommand: positionals, boolean flags and (repeatable) options.
class Args {
public:
    // `flags` take no value (--json); `options` take one (--device cpu, --device=cpu); anything else is an error.
    static std::optional<Args> parse(const std::vector<std::string>& argv, const std::set<std::string>& flags,
                                     const std::set<std::string>& options, std::string* error);

    const std::vector<std::string>& positional() const { return m_positional; }
    bool flag(const std::string& name) const { return m_flags.count(name) > 0; }
    std::optional<std::string> option(const std::string& name) const;
    std::vector<std::string> options(const std::string& name) const;

private:
    std::vector<std::string> m_positional;
    std::set<std::string> m_flags;
    std::map<std::string, std::vector<std::string>> m_options;
};

// A whole argument as a number (an integer in base 10; a double as std::stod reads it); nullopt when any of the
// text is left over or it is not a number.
std::optional<std::int64_t> parseInt(std::string_view s);
std::optional<double> parseDouble(const std::string& s);
// "a,b,,c" → {"a", "b", "", "c"}: a comma-separated option value's items, empty ones kept (the caller says what an
// empty item means); "" → {""}.
std::vector<std::string> splitCommas(std::string_view s);

} // namespace costscope::cli
