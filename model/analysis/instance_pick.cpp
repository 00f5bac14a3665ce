// SPDX-License-Identifier: MIT
#include "analysis/instance_pick.h"

#include <algorithm>
#include <cstdio>

namespace costscope {

namespace {
std::string microseconds(double ns)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f us", ns / 1000.0);
    return text;
}
} // namespace

InstancePick pickAmongInstances(const std::vector<InstanceEstimate>& candidates, RlxVersion version)
{
    const RuledPick ruled = pickByRuleOver(
        candidates, [](const InstanceEstimate& c) { return c.ns; },
        [](const InstanceEstimate& c) { return c.calibration; }, version);
    InstancePick out{ruled.pick, ruled.ranked, {}};
    if (!out.pick)
        return out;
    const InstanceEstimate& best = candidates[*out.pick];
    out.reason = "lowest predicted time, " + microseconds(best.ns) + " under " + best.profile + " ("
                 + std::string(calibrationName(best.calibration)) + ")";
    // The runner-up shows the margin the pick rests on: a near tie between two cards is worth knowing.
    std::optional<std::size_t> next;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (i != *out.pick && out.ranked[i] && (!next || candidates[i].ns < candidates[*next].ns))
            next = i;
    if (next) {
        char margin[32];
        std::snprintf(margin, sizeof margin, "%+.0f %%",
                      best.ns > 0 ? (candidates[*next].ns / best.ns - 1) * 100 : 0.0);
        out.reason +=
            "; next " + candidates[*next].id + " at " + microseconds(candidates[*next].ns) + " (" + margin + ")";
    }
    const std::size_t leftOut = static_cast<std::size_t>(std::count(out.ranked.begin(), out.ranked.end(), false));
    if (leftOut > 0)
        out.reason +=
            "; " + std::to_string(leftOut) + " candidate(s) " + leftOutReason(Calibration::Uncalibrated, version);
    return out;
}

} // namespace costscope
