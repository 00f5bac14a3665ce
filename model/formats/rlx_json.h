// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string>

namespace costscope {

// RLX HIR JSON (../shared/spec/rlx-hir-json.md). Loading accepts {"Mir": X}-wrapped and bare ops, keeps unknown
// ops and unknown keys verbatim; a syntax error carries line and column. Warnings (stated shapes that do not match
// inference, unknown ops) go to `warnings` when given.
Result<Graph> parseRlxJson(const std::string& text, Diagnostics* warnings = nullptr);
// Writes the HIR layout RLX writes: non-leaf ops wrapped in {"Mir": ...}.
std::string writeRlxJson(const Graph& g);

} // namespace costscope
