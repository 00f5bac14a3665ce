// SPDX-License-Identifier: MIT
#include "layout/neighbourhood.h"
#include <algorithm>

namespace costscope {

std::vector<bool> neighbourhood(const Graph& g, std::size_t centre, int hops)
{
    if (centre >= g.nodes.size())
        return {};
    const auto consumers = g.consumers();
    std::vector<bool> in(g.nodes.size(), false);
    in[centre] = true;
    std::vector<std::size_t> frontier{centre};
    for (int hop = 0; hop < hops && !frontier.empty(); ++hop) {
        std::vector<std::size_t> next;
        auto reach = [&](std::size_t n) {
            if (!in[n]) {
                in[n] = true;
                next.push_back(n);
            }
        };
        for (std::size_t n : frontier) {
            for (NodeId input : g.nodes[n].inputs)
                if (const auto at = g.indexOf(input))
                    reach(*at);
            std::for_each(consumers[n].begin(), consumers[n].end(), reach);
        }
        frontier = std::move(next);
    }
    return in;
}

} // namespace costscope
