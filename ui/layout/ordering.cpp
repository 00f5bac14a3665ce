// SPDX-License-Identifier: MIT
#include "layout/layout_steps.h"
#include <algorithm>
#include <numeric>
#include <utility>

namespace costscope::layout::detail {
namespace {

void refreshPositions(LayeredGraph& g)
{
    for (const auto& layerNodes : g.order)
        for (std::size_t i = 0; i < layerNodes.size(); ++i)
            g.pos[static_cast<std::size_t>(layerNodes[i])] = static_cast<int>(i);
}

// Orders one layer by the barycenter of its neighbours in the adjacent layer; nodes without neighbours keep
// their relative place (scaled to the neighbour layer's width so the keys are comparable).
void sortLayer(LayeredGraph& g, std::size_t l, bool useUp, std::vector<std::pair<double, int>>& scratch)
{
    auto& nodes = g.order[l];
    const std::size_t adjLayer = useUp ? l - 1 : l + 1;
    const double scale = nodes.empty() ? 1.0
                                       : static_cast<double>(g.order[adjLayer].size()) /
                                             static_cast<double>(nodes.size());
    scratch.clear();
    for (int v : nodes) {
        const auto& nb = useUp ? g.up[static_cast<std::size_t>(v)] : g.down[static_cast<std::size_t>(v)];
        double key = g.pos[static_cast<std::size_t>(v)] * scale;
        if (!nb.empty()) {
            double sum = 0;
            for (int u : nb)
                sum += g.pos[static_cast<std::size_t>(u)];
            key = sum / static_cast<double>(nb.size());
        }
        scratch.emplace_back(key, v);
    }
    std::stable_sort(scratch.begin(), scratch.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        nodes[i] = scratch[i].second;
        g.pos[static_cast<std::size_t>(nodes[i])] = static_cast<int>(i);
    }
}

} // namespace

long long countLayerCrossings(const LayeredGraph& g, int upperLayer)
{
    // Barth, Jünger, Mutzel: sort the edges by upper position, count inversions of lower positions (Fenwick).
    const auto& upper = g.order[static_cast<std::size_t>(upperLayer)];
    const auto lowerSize = g.order[static_cast<std::size_t>(upperLayer) + 1].size();
    std::vector<int> lowerPositions;
    std::vector<int> scratch;
    for (int u : upper) {
        scratch.clear();
        for (int w : g.down[static_cast<std::size_t>(u)])
            scratch.push_back(g.pos[static_cast<std::size_t>(w)]);
        std::sort(scratch.begin(), scratch.end());
        lowerPositions.insert(lowerPositions.end(), scratch.begin(), scratch.end());
    }
    std::vector<long long> tree(lowerSize + 1, 0);
    long long crossings = 0;
    long long seen = 0;
    for (int p : lowerPositions) {
        long long notGreater = 0;
        for (auto i = static_cast<std::size_t>(p) + 1; i > 0; i -= i & (~i + 1))
            notGreater += tree[i];
        crossings += seen - notGreater;
        for (auto i = static_cast<std::size_t>(p) + 1; i <= lowerSize; i += i & (~i + 1))
            ++tree[i];
        ++seen;
    }
    return crossings;
}

long long countCrossings(const LayeredGraph& g)
{
    long long total = 0;
    for (std::size_t l = 0; l + 1 < g.order.size(); ++l)
        total += countLayerCrossings(g, static_cast<int>(l));
    return total;
}

int reduceCrossings(LayeredGraph& g, const std::vector<double>& initialKeys, int maxSweeps,
                    const std::atomic<bool>* cancel)
{
    const auto n = g.layer.size();
    int layerCount = 0;
    for (int l : g.layer)
        layerCount = std::max(layerCount, l + 1);
    g.order.assign(static_cast<std::size_t>(layerCount), {});
    g.pos.assign(n, 0);
    std::vector<int> byKey(n);
    std::iota(byKey.begin(), byKey.end(), 0);
    std::stable_sort(byKey.begin(), byKey.end(), [&](int a, int b) {
        return initialKeys[static_cast<std::size_t>(a)] < initialKeys[static_cast<std::size_t>(b)];
    });
    for (int v : byKey)
        g.order[static_cast<std::size_t>(g.layer[static_cast<std::size_t>(v)])].push_back(v);
    refreshPositions(g);

    auto best = g.order;
    long long bestCrossings = countCrossings(g);
    int sweeps = 0;
    int sinceImprovement = 0;
    std::vector<std::pair<double, int>> scratch;
    while (sweeps < maxSweeps && bestCrossings > 0 && sinceImprovement < 2) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        for (std::size_t l = 1; l < g.order.size(); ++l)
            sortLayer(g, l, true, scratch);
        for (std::size_t l = g.order.size() - 1; l-- > 0;)
            sortLayer(g, l, false, scratch);
        ++sweeps;
        const long long c = countCrossings(g);
        if (c < bestCrossings) {
            bestCrossings = c;
            best = g.order;
            sinceImprovement = 0;
        } else {
            ++sinceImprovement;
        }
    }
    g.order = std::move(best);
    refreshPositions(g);
    return sweeps;
}

} // namespace costscope::layout::detail
