// SPDX-License-Identifier: MIT
#pragma once
// The profiles that device ids stand for in the estimating commands (analyze, sweep, report, diff): a local device
// under its own profile (local_device_candidates.h), a remote host's device under the host's calibration kept here
// (calibrate --remote saves it as HOST/calibrated-BACKEND).
#include "analysis/device_profile.h"
#include "analysis/profile_library.h"
#include "ir/diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace costscope::cli {

struct IdProfile {
    DeviceProfile profile;
    std::string id;    // "cuda:1", "gpu7/cuda:0"
    std::string label; // "NVIDIA H100 80GB HBM3, PCI 0000:3b:00.0", "calibrated on gpu7"
};

// Whether --device's value is ids ("all", "cuda:0,gpu7/cuda:0", "gpu7/cpu") rather than a device kind ("Cuda").
bool namesDeviceIds(std::string_view spec);

// `spec` is "all" (every local GPU) or a comma list of ids. A host without a calibration here is not a configured
// remote: the error says so and names the hosts that have one. `set`: the parity set local devices fall back to.
Result<std::vector<IdProfile>> profilesForDeviceIds(std::string_view spec, const std::string& set,
                                                    const ProfileLibrary& library);

} // namespace costscope::cli
