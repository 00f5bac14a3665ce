// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "ir/diagnostic.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// A named set of device profiles, one per estimable device (resources/profiles/sets/*.json):
// {
//   "format": "costscope-profile-set", "version": 1,
//   "name": "rlx-linux", "description": "...", "source": "...",
//   "rows": [{"devices": ["Gpu", "Vulkan"], "calibration": "Uncalibrated", <profile keys of profile_io.h but name
//             and device>}, ...],                                  every row states its calibration tag
//   "discrete_gpu_fallback": {"devices": ["Metal", ...], <profile keys>}   optional
// }
// Each row gives one profile per listed device, named "<set>/<device in lower case>", with the set's source unless
// the row names its own. The fallback row's devices get rlx_fallback = true. Every estimable device must be listed
// exactly once.
struct ProfileSet {
    std::string name;
    std::string description;
    std::string source;
    std::vector<DeviceProfile> profiles; // in estimableDevices() order
    // The fallback row as one profile (device Gpu, named "<set>/discrete-gpu-fallback"), when the set has one.
    std::optional<DeviceProfile> discreteGpuFallback;
};

// `origin` (a file path, or the set's name) prefixes every error: "rlx-linux.json: rows[2]: key 'sgemm_gflops': ...".
Result<ProfileSet> profileSetFromJsonText(const std::string& text, const std::string& origin);

// The JSON text of a set compiled into the library from resources/profiles/sets/<name>.json; empty for a name
// that was not compiled in.
std::string_view compiledProfileSetText(std::string_view name);

} // namespace costscope
