// SPDX-License-Identifier: MIT
#pragma once

#include "ir/attribute.h"

#include <nlohmann/json.hpp>

namespace costscope {

using OJson = nlohmann::ordered_json;

// JSON value ↔ typed attribute: null, bool, integer, float, string, homogeneous number/string arrays map to their
// typed forms; anything else is kept as RawJson text so it writes back unchanged.
AttrValue attrFromJson(const OJson& v);
OJson attrToJson(const AttrValue& v);

// "line L, column C" of a byte offset in text (1-based), for syntax errors.
std::pair<int, int> lineColumnOf(const std::string& text, std::size_t byteOffset);

} // namespace costscope
