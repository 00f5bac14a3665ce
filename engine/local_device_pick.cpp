// SPDX-License-Identifier: MIT
#include "local_device_pick.h"

#include <algorithm>

namespace costscope {

LocalDevicePick pickAmongDevices(std::vector<DeviceCandidate> candidates, const DevicePolicy& policy,
                                 const std::function<double(const DeviceProfile&)>& estimate)
{
    std::vector<Device> kinds;
    for (const DeviceCandidate& c : candidates)
        if (std::find(kinds.begin(), kinds.end(), c.kind) == kinds.end())
            kinds.push_back(c.kind);
    const std::vector<Device> order = sortCandidates(kinds, policy);
    const auto rank = [&](Device d) { return std::find(order.begin(), order.end(), d) - order.begin(); };
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](const DeviceCandidate& a, const DeviceCandidate& b) { return rank(a.kind) < rank(b.kind); });

    LocalDevicePick out;
    out.candidates = std::move(candidates);
    for (std::size_t i = 0; i < out.candidates.size(); ++i) {
        const DeviceCandidate& c = out.candidates[i];
        out.blockers.push_back(policyBlocker(c.kind, policy).value_or(""));
        if (!out.blockers.back().empty())
            continue;
        out.estimates.push_back({c.id, c.label(), c.profile.name, estimate(c.profile), c.profile.calibration});
        out.estimated.push_back(i);
    }
    out.pick = pickAmongInstances(out.estimates, policy.rlxVersion);
    return out;
}

} // namespace costscope
