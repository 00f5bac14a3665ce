// SPDX-License-Identifier: MIT
#include "analysis/memory_rate.h"

#include <algorithm>
#include <cmath>

namespace costscope {

MemoryRate::MemoryRate(const DeviceProfile& p) : m_flat(p.memoryBw > 0 ? p.memoryBw : 1.0)
{
    for (const BandwidthPoint& b : p.memoryBwTable)
        if (b.bytes > 0 && b.gbps > 0)
            m_points.push_back({std::log(b.bytes), b.gbps});
    std::sort(m_points.begin(), m_points.end(),
              [](const BandwidthPoint& a, const BandwidthPoint& b) { return a.bytes < b.bytes; });
}

double MemoryRate::at(double bytes) const
{
    if (m_points.empty())
        return m_flat;
    const double x = std::log(std::max(bytes, 1.0));
    if (x <= m_points.front().bytes)
        return m_points.front().gbps;
    if (x >= m_points.back().bytes)
        return m_points.back().gbps;
    auto hi = std::upper_bound(m_points.begin(), m_points.end(), x,
                               [](double v, const BandwidthPoint& p) { return v < p.bytes; });
    auto lo = hi - 1;
    const double t = (x - lo->bytes) / (hi->bytes - lo->bytes);
    return lo->gbps + t * (hi->gbps - lo->gbps);
}

} // namespace costscope
