// SPDX-License-Identifier: MIT
#include "analysis/roofline.h"

#include <algorithm>

namespace costscope {

double Roofline::ridgeIntensity() const
{
    return bandwidthGBps > 0 ? peakGflops / bandwidthGBps : 0;
}

double Roofline::attainableGflops(double intensity) const
{
    return std::min(peakGflops, intensity * bandwidthGBps);
}

Roofline rooflineOf(const GraphCost& cost, const DeviceProfile& profile,
                    const std::vector<std::optional<double>>& measuredNs)
{
    Roofline r;
    r.peakGflops = profile.peakGflops > 0 ? profile.peakGflops : profile.sgemmGflops;
    r.bandwidthGBps = profile.memoryBw;
    for (std::size_t i = 0; i < cost.nodes.size(); ++i) {
        const NodeCost& c = cost.nodes[i];
        if (c.skipped || !(c.totalNs > 0))
            continue;
        if (!(c.flops > 0) || c.bytes == 0) {
            ++r.leftOut;
            continue;
        }
        RooflinePoint p{i, c.id, c.flops / double(c.bytes), c.flops / c.totalNs, std::nullopt};
        if (i < measuredNs.size() && measuredNs[i] && *measuredNs[i] > 0)
            p.measuredGflops = c.flops / *measuredNs[i];
        r.points.push_back(p);
    }
    return r;
}

} // namespace costscope
