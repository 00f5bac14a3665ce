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
        if (s.gflops > 0) {
            m_rate.add(logVolume(s.m, s.k, s.n), s.gflops);
            if (std::min(s.m, s.n) > 1)
                m_matrixRate.add(logVolume(s.m, s.k, s.n), s.gflops);
        }
    m_rate.sort();
    m_matrixRate.sort();
}

double GemmRate::at(std::int64_t m, std::int64_t k, std::int64_t n) const
{
    if (m_rate.empty())
        return m_profile.rlxSgemmGflops(m, k, n);
    const bool matrix = std::min(m, n) > 1 && !m_matrixRate.empty();
    return (matrix ? m_matrixRate : m_rate).at(logVolume(m, k, n));
}

} // namespace costscope
