// SPDX-License-Identifier: MIT
#pragma once
// A run as `costscope-cli run --per-node --json` writes it (a remote host's answer, a Ray sweep's cell) read back as
// a RunComparison against predictions made here, so that the Run panel's per-node views, the Measured overlay and
// the fit treat it like a run of this machine.
#include "run_comparison.h"

#include <nlohmann/json.hpp>

#include <string>

namespace costscope {

// The graph a run JSON was made of: its "file" loaded here, rebatched to its "batch" when it has one.
Result<Graph> graphOfRunJson(const nlohmann::ordered_json& run);

// The run's whole-graph times and per-node times ("whole", "per_node" with "fused_nodes") set against both models
// priced here under the run's "bindings": RLX parity, and the Costscope model under `profileName` (empty: the
// automatic choice of predictRun). `deviceName` names the device in the comparison. An error names the key that is
// missing or of the wrong type.
Result<RunComparison> compareRunJson(std::shared_ptr<const Graph> graph, const nlohmann::ordered_json& run,
                                     const std::string& profileName, const std::string& deviceName);

} // namespace costscope
