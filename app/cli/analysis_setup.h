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
    // Per profile: the local device it stands for ("cuda:1"), where --device named one; empty for a profile or kind.
    std::vector<std::string> deviceIds;
    std::vector<std::string> deviceLabels; // per profile: "NVIDIA H100 80GB HBM3, PCI 0000:3b:00.0" beside an id
};

// Options read: --model rlx|costscope (default rlx), --profile-set (or --profiles) NAME (default rlx-linux),
// --device D..., --profile NAME|FILE..., --bind SYM=N..., --rlx-version 0.2.16|0.2.14 (the pick rule, default
// 0.2.16). Without --device or --profile: Cpu, Cuda and Gpu from the set. --device all (every local GPU) or a local
// device id (cuda:1, local/vulkan:0, comma lists too) stands for that device under its own profile
// (local_device_candidates.h: calibrated, else its datasheet preset, else the set's profile of its kind).
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
