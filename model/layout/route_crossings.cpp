// SPDX-License-Identifier: MIT
#include "layout/layered_layout.h"
#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>

namespace costscope::layout {
namespace {

struct Segment {
    Point a;
    Point b;
    std::size_t route;
};

double cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

bool sharesEndpoint(const Segment& s, const Segment& t)
{
    auto same = [](Point p, Point q) { return std::abs(p.x - q.x) < 1e-6 && std::abs(p.y - q.y) < 1e-6; };
    return same(s.a, t.a) || same(s.a, t.b) || same(s.b, t.a) || same(s.b, t.b);
}

bool properlyIntersect(const Segment& s, const Segment& t)
{
    const double d1 = cross(s.a, s.b, t.a);
    const double d2 = cross(s.a, s.b, t.b);
    const double d3 = cross(t.a, t.b, s.a);
    const double d4 = cross(t.a, t.b, s.b);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

} // namespace

// Counts proper intersections of route segments from different routes. Segments sharing an end point (edges
// meeting at a port) do not count. A uniform grid keeps this near-linear for layered drawings.
long long countRouteCrossings(const std::vector<std::vector<Point>>& routes, Coinciding coinciding)
{
    std::vector<Segment> segs;
    double maxX = 1, maxY = 1;
    for (std::size_t r = 0; r < routes.size(); ++r)
        for (std::size_t k = 0; k + 1 < routes[r].size(); ++k) {
            segs.push_back({routes[r][k], routes[r][k + 1], r});
            maxX = std::max({maxX, routes[r][k].x, routes[r][k + 1].x});
            maxY = std::max({maxY, routes[r][k].y, routes[r][k + 1].y});
        }
    const auto before = [](const Segment& s, const Segment& t) {
        return std::tie(s.a.x, s.a.y, s.b.x, s.b.y) < std::tie(t.a.x, t.a.y, t.b.x, t.b.y);
    };
    const auto coincide = [](const Segment& s, const Segment& t) {
        return s.a.x == t.a.x && s.a.y == t.a.y && s.b.x == t.b.x && s.b.y == t.b.y;
    };
    if (coinciding == Coinciding::OneLine) {
        std::stable_sort(segs.begin(), segs.end(), before);
        segs.erase(std::unique(segs.begin(), segs.end(), coincide), segs.end());
    }
    if (segs.size() < 2)
        return 0;
    const double cells = std::max(1.0, std::sqrt(static_cast<double>(segs.size())));
    const double cw = maxX / cells + 1, ch = maxY / cells + 1;
    std::unordered_map<long long, std::vector<std::size_t>> grid;
    auto cellKey = [&](long long cx, long long cy) { return cx * 1000003LL + cy; };
    for (std::size_t i = 0; i < segs.size(); ++i) {
        const auto& s = segs[i];
        const auto x0 = static_cast<long long>(std::min(s.a.x, s.b.x) / cw);
        const auto x1 = static_cast<long long>(std::max(s.a.x, s.b.x) / cw);
        const auto y0 = static_cast<long long>(std::min(s.a.y, s.b.y) / ch);
        const auto y1 = static_cast<long long>(std::max(s.a.y, s.b.y) / ch);
        for (auto cx = x0; cx <= x1; ++cx)
            for (auto cy = y0; cy <= y1; ++cy)
                grid[cellKey(cx, cy)].push_back(i);
    }
    std::vector<std::pair<std::size_t, std::size_t>> found;
    for (const auto& [key, members] : grid)
        for (std::size_t i = 0; i < members.size(); ++i)
            for (std::size_t j = i + 1; j < members.size(); ++j) {
                const auto& s = segs[members[i]];
                const auto& t = segs[members[j]];
                if (s.route != t.route && !sharesEndpoint(s, t) && properlyIntersect(s, t))
                    found.emplace_back(std::min(members[i], members[j]), std::max(members[i], members[j]));
            }
    std::sort(found.begin(), found.end());
    return static_cast<long long>(std::unique(found.begin(), found.end()) - found.begin());
}

} // namespace costscope::layout
