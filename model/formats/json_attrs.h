// SPDX-License-Identifier: MIT
#pragma once

#include "ir/attribute.h"
#include "ir/diagnostic.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace costscope {

using OJson = nlohmann::ordered_json;

// JSON value ↔ typed attribute: null, bool, integer, float, string, homogeneous number/string arrays map to their
// typed forms; anything else is kept as RawJson text so it writes back unchanged.
AttrValue attrFromJson(const OJson& v);
OJson attrToJson(const AttrValue& v);

// Deepest array/object nesting any Costscope file needs is about 10; nlohmann's copy, dump and compare recurse, so a
// hostile file nested 100 000 deep would overflow the stack. Parsers reject anything past this first.
inline constexpr int kMaxJsonDepth = 256;
// Byte offset of the bracket that takes nesting past maxDepth, or nullopt; strings are skipped.
std::optional<std::size_t> nestingTooDeepAt(const std::string& text, int maxDepth = kMaxJsonDepth);

// The Diagnostic for text nlohmann refused to parse (a parse_error, or a number too large for any type), with the
// line and column of the problem; "file is empty" for empty text.
Diagnostic jsonSyntaxError(const std::string& text, const nlohmann::json::exception& e);
// Same for nesting past kMaxJsonDepth at byte offset `at`.
Diagnostic jsonNestingError(const std::string& text, std::size_t at);

// "line L, column C" of a byte offset in text (1-based), for syntax errors.
std::pair<int, int> lineColumnOf(const std::string& text, std::size_t byteOffset);

} // namespace costscope
