// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace costscope {

// A function given at points (x, y), linear between them and constant beyond the first and last; the rate tables
// of the Costscope model (sgemm by log volume, bandwidth by log bytes) are read through it.
class PiecewiseLinear {
public:
    void add(double x, double y) { m_points.emplace_back(x, y); }
    // Call once after the last add(). Points of equal x keep the order they were added in.
    void sort()
    {
        std::stable_sort(m_points.begin(), m_points.end(),
                         [](const std::pair<double, double>& a, const std::pair<double, double>& b) {
                             return a.first < b.first;
                         });
    }
    bool empty() const { return m_points.empty(); }

    double at(double x) const
    {
        if (x <= m_points.front().first)
            return m_points.front().second;
        if (x >= m_points.back().first)
            return m_points.back().second;
        auto hi = std::upper_bound(m_points.begin(), m_points.end(), x,
                                   [](double v, const std::pair<double, double>& p) { return v < p.first; });
        auto lo = hi - 1;
        const double t = (x - lo->first) / (hi->first - lo->first);
        return lo->second + t * (hi->second - lo->second);
    }

private:
    std::vector<std::pair<double, double>> m_points;
};

} // namespace costscope
