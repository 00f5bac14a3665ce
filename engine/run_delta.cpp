// SPDX-License-Identifier: MIT
#include "run_delta.h"
#include <unordered_map>

namespace costscope {

RunDelta compareRuns(const RunComparison& before, const RunComparison& after)
{
    RunDelta d{static_cast<double>(before.whole.medianNs), static_cast<double>(after.whole.medianNs), {}};
    std::unordered_map<NodeId, double> beforeNs;
    for (const NodeComparison& n : before.nodes)
        beforeNs.emplace(n.id, n.measuredNs);
    for (const NodeComparison& n : after.nodes)
        if (const auto it = beforeNs.find(n.id); it != beforeNs.end())
            d.nodes.push_back({n.nodeIndex, n.id, n.label, it->second, n.measuredNs});
    return d;
}

} // namespace costscope
