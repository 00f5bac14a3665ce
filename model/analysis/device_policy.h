// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device.h"
#include "analysis/pick_rule.h"
#include "ir/diagnostic.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

enum class PickStrategy { CostModel, Benchmark };

// RLX's device policy (cost-model.md §7): allow-list (empty: everything), deny-list, prefer-list and how
// to pick among the viable devices.
struct DevicePolicy {
    std::vector<Device> allow;
    std::vector<Device> deny;
    std::vector<Device> prefer;
    PickStrategy strategy = PickStrategy::CostModel;
    int benchmarkRuns = 1; // Benchmark only; runs max(benchmarkRuns, 1) times
    // Whose cost-model pick: RLX 0.2.16 leaves Uncalibrated models out of the ranking, 0.2.14 ranks them all.
    RlxVersion rlxVersion = kDefaultRlxVersion;

    friend bool operator==(const DevicePolicy&, const DevicePolicy&) = default;
};

// The environment as a map, so that tests can inject one; processEnvironment() snapshots the real one.
using Environment = std::map<std::string, std::string>;
Environment processEnvironment();

// The setting `key` ("DEVICES", "DEVICE_CHAIN", ...): COSTSCOPE_<key> when set and non-empty, else
// RLX_<key>, else nullopt. Costscope's own prefix wins so that a user can override an RLX setup.
std::optional<std::string> envSetting(const Environment& env, std::string_view key);

// "cuda,gpu, cpu" → devices; an unknown name is an error naming it and `what` (the variable or option).
Result<std::vector<Device>> parseDeviceList(std::string_view csv, std::string_view what);
// "cost" or "benchmark:N" (N ≥ 1).
Result<DevicePolicy> withPickStrategy(DevicePolicy policy, std::string_view spec);

// Reads DEVICES (allow), DENY_DEVICES, PREFER_DEVICES and BENCHMARK_PICK=N.
Result<DevicePolicy> policyFromEnvironment(const Environment& env);

// The first policy blocker of `d`: "denied by policy" or "not in allow-list"; nullopt when the policy allows it.
std::optional<std::string> policyBlocker(Device d, const DevicePolicy& policy);
// Filters by allow and deny, then sorts by (position in prefer, RLX priority).
std::vector<Device> sortCandidates(const std::vector<Device>& devices, const DevicePolicy& policy);

std::string deviceListText(const std::vector<Device>& devices); // "Cuda, Gpu, Cpu"

} // namespace costscope
