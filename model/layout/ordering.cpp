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

// Orders one layer by the weighted median of its neighbours in the adjacent layer; nodes without neighbours keep
// their relative place (scaled to the neighbour layer's width so the keys are comparable).
void sortLayer(LayeredGraph& g, std::size_t l, bool useUp, bool flipTies, std::vector<std::pair<double, int>>& scratch)
{
    auto& nodes = g.order[l];
    const std::size_t adjLayer = useUp ? l - 1 : l + 1;
    const double scale = nodes.empty() ? 1.0
                                       : static_cast<double>(g.order[adjLayer].size()) /
                                             static_cast<double>(nodes.size());
    scratch.clear();
    std::vector<int> positions;
    for (int v : nodes) {
        const auto& nb = useUp ? g.up[static_cast<std::size_t>(v)] : g.down[static_cast<std::size_t>(v)];
        double key = g.pos[static_cast<std::size_t>(v)] * scale;
        if (!nb.empty()) {
            // Weighted median (Gansner et al.): robust against one far neighbour dragging the node away.
            positions.clear();
            for (int u : nb)
                positions.push_back(g.pos[static_cast<std::size_t>(u)]);
            std::sort(positions.begin(), positions.end());
            const std::size_t m = positions.size() / 2;
            if (positions.size() % 2 == 1)
                key = positions[m];
            else if (positions.size() == 2)
                key = (positions[0] + positions[1]) / 2.0;
            else {
                const double left = positions[m - 1] - positions.front();
                const double right = positions.back() - positions[m];
                key = left + right > 0 ? (positions[m - 1] * right + positions[m] * left) / (left + right)
                                       : (positions[m - 1] + positions[m]) / 2.0;
            }
        }
        scratch.emplace_back(key, v);
    }
    // Ties keep their order on even sweeps and swap on odd ones (as dot does), which lets equal-keyed
    // neighbours try both arrangements.
    if (flipTies)
        std::reverse(scratch.begin(), scratch.end());
    std::stable_sort(scratch.begin(), scratch.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        nodes[i] = scratch[i].second;
        g.pos[static_cast<std::size_t>(nodes[i])] = static_cast<int>(i);
    }
}

// Crossings among the edges of u and v (to both adjacent layers) when u sits left of v.
long long pairCrossings(const LayeredGraph& g, int u, int v)
{
    long long c = 0;
    for (const auto* adj : {&g.up, &g.down})
        for (int a : (*adj)[static_cast<std::size_t>(u)])
            for (int b : (*adj)[static_cast<std::size_t>(v)])
                c += g.pos[static_cast<std::size_t>(a)] > g.pos[static_cast<std::size_t>(b)];
    return c;
}

// Gansner et al.'s transposition step: swap neighbours while that removes crossings. Bounded passes, because
// a layer of thousands of nodes must not turn this quadratic.
void transpose(LayeredGraph& g)
{
    constexpr int kPasses = 4;
    for (int pass = 0; pass < kPasses; ++pass) {
        bool improved = false;
        for (auto& nodes : g.order)
            for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
                const int u = nodes[i];
                const int v = nodes[i + 1];
                if (pairCrossings(g, v, u) < pairCrossings(g, u, v)) {
                    std::swap(nodes[i], nodes[i + 1]);
                    g.pos[static_cast<std::size_t>(u)] = static_cast<int>(i + 1);
                    g.pos[static_cast<std::size_t>(v)] = static_cast<int>(i);
                    improved = true;
                }
            }
        if (!improved)
            return;
    }
}

// The dummies of each trunk, top to bottom. A trunk's first dummy hangs below a real node; every dummy has one
// predecessor and at most one dummy successor (its other successors are the real nodes that branch off).
std::vector<std::vector<int>> dummyChains(const LayeredGraph& g)
{
    const auto nextDummy = [&](int d) {
        for (int w : g.down[static_cast<std::size_t>(d)])
            if (g.isDummy(w))
                return w;
        return -1;
    };
    std::vector<std::vector<int>> chains;
    for (int v = g.realCount; v < static_cast<int>(g.layer.size()); ++v) {
        if (g.isDummy(g.up[static_cast<std::size_t>(v)].front()))
            continue;
        auto& chain = chains.emplace_back();
        for (int d = v; d >= 0; d = nextDummy(d))
            chain.push_back(d);
    }
    return chains;
}

// Crossings of the edge u→v (u in layer l) with the other edges between layers l and l + 1.
long long edgeCrossings(const LayeredGraph& g, std::size_t l, int u, int v)
{
    const int pu = g.pos[static_cast<std::size_t>(u)];
    const int pv = g.pos[static_cast<std::size_t>(v)];
    long long c = 0;
    for (int x : g.order[l]) {
        const int px = g.pos[static_cast<std::size_t>(x)];
        if (px == pu)
            continue;
        for (int y : g.down[static_cast<std::size_t>(x)]) {
            const int py = g.pos[static_cast<std::size_t>(y)];
            c += py != pv && (px < pu) != (py < pv);
        }
    }
    return c;
}

// Edges between layers l and l + 1, other than those leaving `skip`, whose upper (or lower) end lies left of
// position p, and right of it.
std::pair<long long, long long> edgesBeside(const LayeredGraph& g, std::size_t l, int p, bool byLowerEnd, int skip)
{
    std::pair<long long, long long> c{0, 0};
    for (int x : g.order[l]) {
        if (x == skip)
            continue;
        for (int y : g.down[static_cast<std::size_t>(x)]) {
            const int q = g.pos[static_cast<std::size_t>(byLowerEnd ? y : x)];
            c.first += q < p;
            c.second += q > p;
        }
    }
    return c;
}

void moveChainTo(LayeredGraph& g, const std::vector<int>& chain, bool left)
{
    for (int d : chain) {
        auto& nodes = g.order[static_cast<std::size_t>(g.layer[static_cast<std::size_t>(d)])];
        nodes.erase(nodes.begin() + g.pos[static_cast<std::size_t>(d)]);
        nodes.insert(left ? nodes.begin() : nodes.end(), d);
        for (std::size_t i = 0; i < nodes.size(); ++i)
            g.pos[static_cast<std::size_t>(nodes[i])] = static_cast<int>(i);
    }
}

// Which side of the rest a long edge runs on is a global decision that median sweeps and transpositions (which
// move one node at a time) cannot revisit: moving one dummy across a node costs two crossings before the rest of
// its chain follows. So each whole chain is tried at the far left and the far right of its layers, where only
// its segments to real nodes (in from its source, out to each consumer) can cross anything, and moved there when
// that crosses less than where it runs now. Chains through layers wider than kMaxLayer are left alone to keep
// this linear.
bool moveChains(LayeredGraph& g, const std::vector<std::vector<int>>& chains)
{
    constexpr std::size_t kMaxLayer = 256;
    bool moved = false;
    const auto layerOf = [&](int v) { return static_cast<std::size_t>(g.layer[static_cast<std::size_t>(v)]); };
    for (const auto& chain : chains) {
        if (std::any_of(chain.begin(), chain.end(), [&](int d) { return g.order[layerOf(d)].size() > kMaxLayer; }))
            continue;
        const int src = g.up[static_cast<std::size_t>(chain.front())].front();
        long long now = edgeCrossings(g, layerOf(src), src, chain.front());
        auto [left, right] = edgesBeside(g, layerOf(src), g.pos[static_cast<std::size_t>(src)], false, src);
        for (int d : chain)
            for (int w : g.down[static_cast<std::size_t>(d)]) {
                now += edgeCrossings(g, layerOf(d), d, w);
                if (g.isDummy(w))
                    continue;
                const auto beside = edgesBeside(g, layerOf(d), g.pos[static_cast<std::size_t>(w)], true, d);
                left += beside.first;
                right += beside.second;
            }
        if (std::min(left, right) < now) {
            moveChainTo(g, chain, left <= right);
            moved = true;
        }
    }
    return moved;
}

// Both kinds of whole moves; each runs whether or not the other moved anything.
bool moveWholes(LayeredGraph& g, const std::vector<std::vector<int>>& chains, const std::vector<PendantTree>& trees)
{
    const bool chainsMoved = moveChains(g, chains);
    const bool treesMoved = movePendantTrees(g, trees);
    return chainsMoved || treesMoved;
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
    const auto chains = dummyChains(g);
    const auto trees = pendantTrees(g);
    while (sweeps < maxSweeps && bestCrossings > 0 && sinceImprovement < 4) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            break;
        for (std::size_t l = 1; l < g.order.size(); ++l)
            sortLayer(g, l, true, sweeps % 2 == 1, scratch);
        for (std::size_t l = g.order.size() - 1; l-- > 0;)
            sortLayer(g, l, false, sweeps % 2 == 1, scratch);
        transpose(g);
        // From the second sweep on, when the medians have settled, whole long edges may change sides and whole
        // weight trees move next to their op's other inputs.
        if (sweeps % 2 == 1 && moveWholes(g, chains, trees))
            transpose(g);
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
    for (int round = 0; round < 3 && bestCrossings > 0; ++round) {
        best = g.order;
        if (!moveWholes(g, chains, trees))
            break;
        transpose(g);
        const long long c = countCrossings(g);
        if (c >= bestCrossings) {
            g.order = std::move(best);
            refreshPositions(g);
            break;
        }
        bestCrossings = c;
    }
    return sweeps;
}

} // namespace costscope::layout::detail
