// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"

#include <nlohmann/json.hpp>

namespace costscope::cli {

// The text form of a run, printed from its JSON, so that a local run and a remote one (whose JSON came back over
// ssh) read the same.
void printRunText(const nlohmann::ordered_json& run);
// The line on stderr that says how the output check went (the JSON's "check"), when there was one.
void printCheckLine(const nlohmann::ordered_json& run);
// One model's prediction beside a measured median: the part a timed run measures (measuredPartNs) as "total_ns"
// and its error, the read-back left out, and "transferred_from" where the profile was transferred.
nlohmann::ordered_json predictedJson(const GraphCost& c, double measuredNs);

} // namespace costscope::cli
