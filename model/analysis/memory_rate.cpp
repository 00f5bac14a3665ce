// SPDX-License-Identifier: MIT
#include "analysis/memory_rate.h"

#include <algorithm>
#include <cmath>

namespace costscope {

MemoryRate::MemoryRate(const DeviceProfile& p) : m_flat(p.memoryBw > 0 ? p.memoryBw : 1.0)
{
    for (const BandwidthPoint& b : p.memoryBwTable)
        if (b.bytes > 0 && b.gbps > 0)
            m_rate.add(std::log(b.bytes), b.gbps);
    m_rate.sort();
}

double MemoryRate::at(double bytes) const
{
    return m_rate.empty() ? m_flat : m_rate.at(std::log(std::max(bytes, 1.0)));
}

} // namespace costscope
