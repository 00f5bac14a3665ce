// SPDX-License-Identifier: MIT
#include "analysis/gemm_rate.h"

#include <algorithm>
#include <cmath>

namespace costscope {

namespace {
double logVolume(std::int64_t m, std::int64_t k, std::int64_t n)
{
    auto pos = [](std::int64_t v) { return static_cast<double>(std::max<std::int64_t>(v, 1)); };
    return std::log(pos(m) * pos(k) * pos(n));
}
} // namespace

GemmRate::GemmRate(const DeviceProfile& p) : m_profile(p)
{
    for (const SgemmPoint& s : p.sgemmTable)
        if (s.gflops > 0)
            m_points.push_back({logVolume(s.m, s.k, s.n), s.gflops});
    std::sort(m_points.begin(), m_points.end(), [](const Point& a, const Point& b) {
        return a.logVolume < b.logVolume;
    });
}

double GemmRate::at(std::int64_t m, std::int64_t k, std::int64_t n) const
{
    if (m_points.empty())
        return m_profile.rlxSgemmGflops(m, k, n);
    const double x = logVolume(m, k, n);
    if (x <= m_points.front().logVolume)
        return m_points.front().gflops;
    if (x >= m_points.back().logVolume)
        return m_points.back().gflops;
    auto hi = std::upper_bound(m_points.begin(), m_points.end(), x,
                               [](double v, const Point& p) { return v < p.logVolume; });
    auto lo = hi - 1;
    const double t = (x - lo->logVolume) / (hi->logVolume - lo->logVolume);
    return lo->gflops + t * (hi->gflops - lo->gflops);
}

} // namespace costscope
