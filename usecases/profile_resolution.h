// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "analysis/profile_library.h"
#include "ir/diagnostic.h"

#include <string>

namespace costscope {

// The one rule by which a name the user gives (costscope-cli's --device/--profile, the GUI's device selector, an
// export) becomes a device profile, first match wins:
//   1. a device name ("Cpu", "Cuda", ...): that device's profile in the RLX parity set `set` (the default until the
//      user picks hardware);
//   2. a profile of `library` by name: a shipped preset, a user profile (calibrate, fit) or an RLX cache;
//   3. "<set>/<device>" ("rlx-apple/cpu"): a profile of any RLX parity set;
//   4. a profile JSON file.
// Device names come first so that a user profile can never change what "Cuda" means. A profile whose learned
// predictors could not be read is still returned (its loadWarnings say so; the caller shows them).
Result<DeviceProfile> resolveProfile(const std::string& nameOrPath, const ProfileLibrary& library,
                                     const std::string& set = "rlx-linux");

} // namespace costscope
