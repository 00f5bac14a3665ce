// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "analysis/pick_rule.h"
#include "cli/args.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace costscope::cli {

// What analyze and sweep share: the cost model, the profiles to compare and the symbol bindings.
struct AnalysisSetup {
    std::unique_ptr<CostModel> model;
    std::vector<DeviceProfile> profiles;
    Bindings bindings;
    RlxVersion rlxVersion = kDefaultRlxVersion; // whose pick rule decides the pick among the profiles
};

// Options read: --model rlx|costscope (default rlx), --profile-set (or --profiles) NAME (default rlx-linux),
// --device D..., --profile NAME|FILE..., --bind SYM=N..., --rlx-version 0.2.16|0.2.14 (the pick rule, default
// 0.2.16). Without --device or --profile: Cpu, Cuda and Gpu from the set.
// Errors are printed to stderr; nullopt then, with *exitCode set.
std::optional<AnalysisSetup> analysisSetup(const Args& a, int* exitCode);
inline const std::set<std::string> kAnalysisOptions = {"model",   "profile-set", "profiles",   "device",
                                                       "profile", "bind",        "rlx-version"};
// --rlx-version VERSION (default 0.2.16); nullopt and *error on an unknown version.
std::optional<RlxVersion> rlxVersionOption(const Args& a, std::string* error);
inline constexpr const char* kRlxVersionUsage =
    "--rlx-version 0.2.16|0.2.14: whose device-pick rule (0.2.16 leaves Uncalibrated models out of the ranking "
    "unless all are)";

// usecases/profile_resolution.h's rule (a device of `set`, a library profile, "<set>/<device>", a JSON file), with
// the library read from the default paths; the profile's load warnings go to stderr.
std::optional<DeviceProfile> resolveProfile(const std::string& nameOrPath, std::string* error,
                                            const std::string& set = "rlx-linux");

} // namespace costscope::cli
