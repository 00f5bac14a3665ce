// SPDX-License-Identifier: MIT
#pragma once
// Geometric checks shared by the layout tests.
#include "layout/layered_layout.h"
#include <QString>
#include <algorithm>
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

} // namespace costscope::test
