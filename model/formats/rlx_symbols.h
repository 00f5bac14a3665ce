// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace costscope {

// RLX numbers its symbolic dims; Costscope names them. 0 batch, 1 seq, 2 rows, 3 past_seq (RLX's named symbols),
// any other number N is "sN" unless the file names it in "costscope_symbols".
std::string rlxSymbolName(std::int64_t number, const std::map<std::int64_t, std::string>& named = {});

// Numbers for writing: the four RLX names and "sN" map back to their numbers; other names get fresh numbers
// (from 1000 on, in first-seen order), recorded in `custom` so the file can name them.
class RlxSymbolNumbers {
public:
    std::int64_t numberOf(const std::string& name);
    const std::map<std::int64_t, std::string>& custom() const { return m_custom; }

private:
    std::map<std::string, std::int64_t> m_assigned;
    std::map<std::int64_t, std::string> m_custom;
};

} // namespace costscope
