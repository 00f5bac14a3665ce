// SPDX-License-Identifier: MIT
#pragma once
// Geometric checks shared by the layout tests.
#include "layout/layered_layout.h"
#include <QString>
#include <algorithm>
#include <cmath>
#include <map>

namespace costscope::test {

// Empty when boxes in one layer do not overlap; else names the first overlapping pair.
inline QString layerOverlap(const layout::LayoutInput& in, const layout::LayoutResult& r)
{
    const bool tb = in.direction == layout::Direction::TopToBottom;
    std::map<int, std::vector<std::size_t>> byLayer;
    for (std::size_t i = 0; i < r.centers.size(); ++i)
        byLayer[r.layers[i]].push_back(i);
    for (auto& [layer, nodes] : byLayer) {
        auto across = [&](std::size_t i) { return tb ? r.centers[i].x : r.centers[i].y; };
        auto extent = [&](std::size_t i) { return (tb ? in.nodes[i].width : in.nodes[i].height) / 2; };
        std::sort(nodes.begin(), nodes.end(), [&](auto a, auto b) { return across(a) < across(b); });
        for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
            if (across(nodes[k]) + extent(nodes[k]) > across(nodes[k + 1]) - extent(nodes[k + 1]) + 1e-6)
                return QStringLiteral("layer %1: nodes %2 and %3 overlap").arg(layer).arg(nodes[k]).arg(nodes[k + 1]);
    }
    return {};
}

// Empty when every route runs monotonically along the layout direction from its source to its target.
inline QString edgeDirectionProblem(const layout::LayoutInput& in, const layout::LayoutResult& r)
{
    const bool tb = in.direction == layout::Direction::TopToBottom;
    for (std::size_t e = 0; e < r.routes.size(); ++e) {
        const auto& route = r.routes[e];
        if (in.edges[e].from == in.edges[e].to)
            continue;
        if (route.size() < 2)
            return QStringLiteral("edge %1 has no route").arg(e);
        for (std::size_t k = 0; k + 1 < route.size(); ++k) {
            const double a = tb ? route[k].y : route[k].x;
            const double b = tb ? route[k + 1].y : route[k + 1].x;
            if (b <= a)
                return QStringLiteral("edge %1 (%2→%3) goes backwards at point %4")
                    .arg(e).arg(in.edges[e].from).arg(in.edges[e].to).arg(k);
        }
    }
    return {};
}

// Empty when no two boxes overlap anywhere (a folded drawing puts layers side by side); else names a pair.
inline QString boxesOverlap(const layout::LayoutInput& in, const layout::LayoutResult& r)
{
    for (std::size_t i = 0; i < r.centers.size(); ++i)
        for (std::size_t j = i + 1; j < r.centers.size(); ++j)
            if (std::abs(r.centers[i].x - r.centers[j].x) + 1e-6 < (in.nodes[i].width + in.nodes[j].width) / 2
                && std::abs(r.centers[i].y - r.centers[j].y) + 1e-6 < (in.nodes[i].height + in.nodes[j].height) / 2)
                return QStringLiteral("nodes %1 and %2 overlap").arg(i).arg(j);
    return {};
}

// Empty when every box lies within [0, width] x [0, height]; else names the first that does not.
inline QString outsideDrawing(const layout::LayoutInput& in, const layout::LayoutResult& r)
{
    for (std::size_t i = 0; i < r.centers.size(); ++i)
        if (r.centers[i].x - in.nodes[i].width / 2 < -1e-6 || r.centers[i].x + in.nodes[i].width / 2 > r.width + 1e-6
            || r.centers[i].y - in.nodes[i].height / 2 < -1e-6
            || r.centers[i].y + in.nodes[i].height / 2 > r.height + 1e-6)
            return QStringLiteral("node %1 at %2,%3 is outside %4x%5")
                .arg(i)
                .arg(r.centers[i].x)
                .arg(r.centers[i].y)
                .arg(r.width)
                .arg(r.height);
    return {};
}

// Empty when every route starts on its source's border and ends on its target's (top to bottom: the bottom and top
// edges' centres; left to right: the right and left edges').
inline QString routeEndsOffBorders(const layout::LayoutInput& in, const layout::LayoutResult& r)
{
    const bool tb = in.direction == layout::Direction::TopToBottom;
    auto border = [&](int node, double side) {
        const auto& c = r.centers[static_cast<std::size_t>(node)];
        const auto& n = in.nodes[static_cast<std::size_t>(node)];
        return tb ? layout::Point{c.x, c.y + side * n.height / 2} : layout::Point{c.x + side * n.width / 2, c.y};
    };
    auto near = [](layout::Point a, layout::Point b) {
        return std::abs(a.x - b.x) < 1e-6 && std::abs(a.y - b.y) < 1e-6;
    };
    for (std::size_t e = 0; e < r.routes.size(); ++e) {
        const auto& route = r.routes[e];
        const auto& edge = in.edges[e];
        if (edge.from == edge.to || route.size() < 2)
            continue;
        const bool down = near(route.front(), border(edge.from, 1)) && near(route.back(), border(edge.to, -1));
        const bool up =
            near(route.front(), border(edge.from, -1)) && near(route.back(), border(edge.to, 1)); // reversed
        if (!down && !up)
            return QStringLiteral("edge %1 (%2→%3) does not start and end on its boxes")
                .arg(e)
                .arg(edge.from)
                .arg(edge.to);
    }
    return {};
}

} // namespace costscope::test
