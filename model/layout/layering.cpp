// SPDX-License-Identifier: MIT
#include "layout/layout_steps.h"
#include <algorithm>
#include <limits>
#include <utility>

namespace costscope::layout::detail {

AcyclicEdges breakCycles(int nodeCount, const std::vector<LayoutInput::Edge>& edges)
{
    AcyclicEdges out;
    out.reversed.assign(edges.size(), false);
    out.dropped.assign(edges.size(), false);
    std::vector<std::vector<std::pair<int, int>>> adj(static_cast<std::size_t>(nodeCount)); // (to, edge index)
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (edges[i].from == edges[i].to)
            out.dropped[i] = true;
        else
            adj[static_cast<std::size_t>(edges[i].from)].emplace_back(edges[i].to, static_cast<int>(i));
    }
    // Iterative DFS: ML graphs are deep chains and would overflow a recursive one.
    enum : char { White, Grey, Black };
    std::vector<char> state(static_cast<std::size_t>(nodeCount), White);
    std::vector<std::pair<int, std::size_t>> stack;
    for (int root = 0; root < nodeCount; ++root) {
        if (state[static_cast<std::size_t>(root)] != White)
            continue;
        stack.emplace_back(root, 0);
        state[static_cast<std::size_t>(root)] = Grey;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            const auto& out_ = adj[static_cast<std::size_t>(v)];
            if (next == out_.size()) {
                state[static_cast<std::size_t>(v)] = Black;
                stack.pop_back();
                continue;
            }
            const auto [w, ei] = out_[next++];
            if (state[static_cast<std::size_t>(w)] == Grey)
                out.reversed[static_cast<std::size_t>(ei)] = true;
            else if (state[static_cast<std::size_t>(w)] == White) {
                state[static_cast<std::size_t>(w)] = Grey;
                stack.emplace_back(w, 0);
            }
        }
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (out.dropped[i])
            continue;
        out.edges.push_back(out.reversed[i] ? LayoutInput::Edge{edges[i].to, edges[i].from} : edges[i]);
    }
    return out;
}

std::vector<int> assignLayers(int nodeCount, const std::vector<LayoutInput::Edge>& edges,
                              const std::vector<int>& hintLayers)
{
    const auto n = static_cast<std::size_t>(nodeCount);
    std::vector<std::vector<int>> succ(n);
    std::vector<int> indeg(n, 0);
    for (const auto& e : edges) {
        succ[static_cast<std::size_t>(e.from)].push_back(e.to);
        ++indeg[static_cast<std::size_t>(e.to)];
    }
    std::vector<int> topo;
    topo.reserve(n);
    for (int v = 0; v < nodeCount; ++v)
        if (indeg[static_cast<std::size_t>(v)] == 0)
            topo.push_back(v);
    for (std::size_t i = 0; i < topo.size(); ++i)
        for (int w : succ[static_cast<std::size_t>(topo[i])])
            if (--indeg[static_cast<std::size_t>(w)] == 0)
                topo.push_back(w);

    std::vector<int> layer(n, 0);
    const bool hinted = hintLayers.size() == n;
    for (int v : topo) {
        auto& l = layer[static_cast<std::size_t>(v)];
        if (hinted)
            l = std::max(l, hintLayers[static_cast<std::size_t>(v)]);
        for (int w : succ[static_cast<std::size_t>(v)])
            layer[static_cast<std::size_t>(w)] = std::max(layer[static_cast<std::size_t>(w)], l + 1);
    }
    // Longest path puts every weight and every weight-only chain (Param → Reshape) in the top layers, with long
    // edges down to their consumers. Moving a node down shortens its out-edges and lengthens its in-edges, so
    // in reverse topological order every node with at least as many out- as in-edges sinks to just above its
    // nearest consumer (a greedy step towards the minimum total edge length that network simplex finds).
    std::vector<int> indegree(n, 0);
    for (const auto& e : edges)
        ++indegree[static_cast<std::size_t>(e.to)];
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const auto v = static_cast<std::size_t>(*it);
        const auto& s = succ[v];
        if (s.empty() || s.size() < static_cast<std::size_t>(indegree[v]))
            continue;
        int lowest = std::numeric_limits<int>::max();
        for (int w : s)
            lowest = std::min(lowest, layer[static_cast<std::size_t>(w)]);
        layer[v] = std::max(layer[v], lowest - 1);
    }
    // Remove empty layers (a collapsed group leaves gaps in the hinted layering).
    const int maxLayer = layer.empty() ? 0 : *std::max_element(layer.begin(), layer.end());
    std::vector<int> used(static_cast<std::size_t>(maxLayer) + 1, 0);
    for (int l : layer)
        used[static_cast<std::size_t>(l)] = 1;
    std::vector<int> remap(used.size(), 0);
    int next = 0;
    for (std::size_t l = 0; l < used.size(); ++l) {
        remap[l] = next;
        next += used[l];
    }
    for (auto& l : layer)
        l = remap[static_cast<std::size_t>(l)];
    return layer;
}

} // namespace costscope::layout::detail
