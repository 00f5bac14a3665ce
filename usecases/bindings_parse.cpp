// SPDX-License-Identifier: MIT
#include "usecases/bindings_parse.h"

#include <charconv>

namespace costscope {

Result<Bindings> parseBindings(const std::vector<std::string>& items)
{
    Bindings bindings;
    for (const std::string& item : items) {
        const auto eq = item.find('=');
        std::int64_t value = -1;
        bool valid = eq != std::string::npos && eq > 0;
        if (valid) {
            const char* begin = item.data() + eq + 1;
            const char* end = item.data() + item.size();
            const auto [ptr, ec] = std::from_chars(begin, end, value);
            valid = ec == std::errc() && ptr == end && begin != end && value >= 0;
        }
        if (!valid)
            return Diagnostic::error("bad --bind '" + item + "': expected SYMBOL=N with N >= 0");
        bindings[item.substr(0, eq)] = value;
    }
    return bindings;
}

} // namespace costscope
