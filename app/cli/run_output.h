// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

namespace costscope::cli {

// The text form of a run, printed from its JSON, so that a local run and a remote one (whose JSON came back over
// ssh) read the same.
void printRunText(const nlohmann::ordered_json& run);
// The line on stderr that says how the output check went (the JSON's "check"), when there was one.
void printCheckLine(const nlohmann::ordered_json& run);

} // namespace costscope::cli
