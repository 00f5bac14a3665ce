// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/calibration_fit.h"
#include "analysis/cost_model.h"
#include "ir/diagnostic.h"

#include <string>
#include <utility>
#include <vector>

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

// A fit sample set from one measured run: `uncorrected` is the Costscope estimate under a profile without
// corrections; `measured` pairs node ids with measured ns (nodes the model calls free are left out).
FitRun fitRunFrom(const Graph& g, const GraphCost& uncorrected,
                  const std::vector<std::pair<NodeId, double>>& measured, double wholeMeasuredNs);

} // namespace costscope::cli
