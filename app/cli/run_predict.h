// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "ir/diagnostic.h"

#include <string>

namespace costscope::cli {

// The two predictions a run is compared with.
struct RunPredictions {
    DeviceProfile rlxProfile;       // rlx-linux profile of the backend's device kind
    DeviceProfile costscopeProfile; // --profile, else the user's "calibrated-<backend>", else rlxProfile
    GraphCost rlx;
    GraphCost costscope;
};

// `profileName` empty: the automatic choice above. An error names a profile that does not exist.
Result<RunPredictions> predictRun(const Graph& g, const Bindings& b, const std::string& backend,
                                  const std::string& profileName);

} // namespace costscope::cli
