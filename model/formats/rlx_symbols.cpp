// SPDX-License-Identifier: MIT
#include "formats/rlx_symbols.h"

#include <array>
#include <cctype>

namespace costscope {

namespace {
constexpr std::array<const char*, 4> kRlxNames = {"batch", "seq", "rows", "past_seq"};
constexpr std::int64_t kFirstCustomNumber = 1000;
} // namespace

std::string rlxSymbolName(std::int64_t number, const std::map<std::int64_t, std::string>& named)
{
    if (auto it = named.find(number); it != named.end())
        return it->second;
    if (number >= 0 && number < static_cast<std::int64_t>(kRlxNames.size()))
        return kRlxNames[static_cast<std::size_t>(number)];
    return "s" + std::to_string(number);
}

std::int64_t RlxSymbolNumbers::numberOf(const std::string& name)
{
    for (std::size_t i = 0; i < kRlxNames.size(); ++i)
        if (name == kRlxNames[i])
            return static_cast<std::int64_t>(i);
    if (name.size() > 1 && name[0] == 's' && name.size() < 18) {
        bool digits = true;
        for (std::size_t i = 1; i < name.size(); ++i)
            digits = digits && std::isdigit(static_cast<unsigned char>(name[i]));
        if (digits)
            return std::stoll(name.substr(1));
    }
    if (auto it = m_assigned.find(name); it != m_assigned.end())
        return it->second;
    const std::int64_t n = kFirstCustomNumber + static_cast<std::int64_t>(m_assigned.size());
    m_assigned[name] = n;
    m_custom[n] = name;
    return n;
}

} // namespace costscope
