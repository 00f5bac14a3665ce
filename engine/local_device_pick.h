// SPDX-License-Identifier: MIT
#pragma once
// The pick among this machine's devices (issue 24), shared by `costscope-cli pick --device` and its tests: the policy
// filters the candidates by kind and orders them by its prefer-list, each is estimated under its own profile, and
// RLX's pick rule chooses one instance, not just a kind.
#include "analysis/device_policy.h"
#include "analysis/instance_pick.h"
#include "local_device_candidates.h"

#include <functional>
#include <string>
#include <vector>

namespace costscope {

struct LocalDevicePick {
    std::vector<DeviceCandidate> candidates; // in the policy's order (prefer-list, then RLX priority, then as listed)
    std::vector<std::string> blockers;       // per candidate: policyBlocker's text, empty where the policy allows it
    std::vector<InstanceEstimate> estimates; // per allowed candidate, in order; what `pick` indexes
    std::vector<std::size_t> estimated;      // per estimate: its candidate's index
    InstancePick pick;

    const DeviceCandidate* picked() const { return pick.pick ? &candidates[estimated[*pick.pick]] : nullptr; }
};

// `estimate`: the predicted ns of the graph under a candidate's profile.
LocalDevicePick pickAmongDevices(std::vector<DeviceCandidate> candidates, const DevicePolicy& policy,
                                 const std::function<double(const DeviceProfile&)>& estimate);

} // namespace costscope
