// SPDX-License-Identifier: MIT
#include "analysis/kernel_rate.h"

#include <algorithm>
#include <cmath>

namespace costscope {

KernelRate::KernelRate(const DeviceProfile& p) : m_profile(p)
{
    for (const auto& [key, points] : p.kernelGflopsBySize) {
        PiecewiseLinear rate;
        for (const KernelRatePoint& k : points)
            if (k.flops > 0 && k.gflops > 0)
                rate.add(std::log(k.flops), k.gflops);
        if (!rate.empty()) {
            rate.sort();
            m_bySize.emplace(key, std::move(rate));
        }
    }
}

std::optional<double> KernelRate::find(const std::string& key, double flops) const
{
    if (auto it = m_bySize.find(key); it != m_bySize.end())
        return it->second.at(std::log(std::max(flops, 1.0)));
    if (auto it = m_profile.kernelGflops.find(key); it != m_profile.kernelGflops.end())
        return it->second;
    return std::nullopt;
}

std::optional<double> KernelRate::at(const Op& op, double flops) const
{
    if (m_profile.kernelGflops.empty() && m_bySize.empty())
        return std::nullopt;
    if (op.kind == OpKind::Activation || op.kind == OpKind::Binary)
        if (auto r = find(op.label(), flops))
            return r;
    return find(std::string(op.info().name), flops);
}

} // namespace costscope
