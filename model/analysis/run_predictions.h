// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "analysis/host_speed.h"
#include "ir/diagnostic.h"

#include <optional>
#include <string>

namespace costscope {

// The two predictions a run on a backend is compared with (costscope-cli run and the GUI's Run panel).
struct RunPredictions {
    DeviceProfile rlxProfile;       // rlx-linux profile of the backend's device kind
    DeviceProfile costscopeProfile; // `profileName`, else the user's "calibrated-<backend>", else rlxProfile
    GraphCost rlx;
    GraphCost costscope;
    // After adjustForHost: the host's speed now against the Costscope profile's calibration, and the Costscope
    // prediction at that speed (hostAdjusted). Unset where the profile holds no probe.
    std::optional<HostSpeed> hostSpeed;
    GraphCost costscopeHost;
};

// The device kind whose profiles describe a backend's devices: cuda → Cuda, vulkan → Gpu, anything else → Cpu.
Device deviceOfBackend(const std::string& backend);

// `profileName` empty: the automatic choice above. An error names a profile that does not exist.
Result<RunPredictions> predictRun(const Graph& g, const Bindings& b, const std::string& backend,
                                  const std::string& profileName);

// Prices the graph again with the Costscope profile scaled to the host's speed (`now`: a probe taken around the
// run). Does nothing when the profile holds no probe of its own.
void adjustForHost(RunPredictions& p, const Graph& g, const Bindings& b, const HostProbe& now);

} // namespace costscope
