// SPDX-License-Identifier: MIT
// Weight chains move as a whole. ML graphs hang small in-trees of weights onto their ops: a Param into a MatMul,
// Constant → ConstantOfShape into each of a BatchNorm's four inputs, Param → Reshape into a Conv. Median sweeps
// and adjacent transpositions move one node at a time, and moving one node of such a chain past its neighbours
// costs a crossing until the rest of the chain follows, so a chain that started on the wrong side of a residual
// skip or of its op's other input stays there (light_resnet50 kept 22 crossings that way). Here each tree is
// taken out and put back where its edges cross least: its root at every slot of its layer, the nodes above it
// each at the best slot given the one below; the tree moves when that beats where it is.
#include "layout/layout_steps.h"
#include <algorithm>
#include <limits>

namespace costscope::layout::detail {
namespace {

void refreshLayer(LayeredGraph& g, std::size_t l)
{
    const auto& nodes = g.order[l];
    for (std::size_t i = 0; i < nodes.size(); ++i)
        g.pos[static_cast<std::size_t>(nodes[i])] = static_cast<int>(i);
}

std::size_t layerOf(const LayeredGraph& g, int v)
{
    return static_cast<std::size_t>(g.layer[static_cast<std::size_t>(v)]);
}

// Crossings of an edge into `below` from each insertion slot of layer l (slot i: before the node now at i).
void insertionCosts(const LayeredGraph& g, std::size_t l, int below, std::vector<long long>& cost)
{
    const auto& nodes = g.order[l];
    const int q = g.pos[static_cast<std::size_t>(below)];
    cost.assign(nodes.size() + 1, 0);
    // From slot 0 every edge ending left of `below` crosses; each node passed on the way right turns its edges
    // ending right of `below` into crossings instead.
    long long total = 0;
    for (int a : nodes)
        for (int b : g.down[static_cast<std::size_t>(a)])
            total += g.pos[static_cast<std::size_t>(b)] < q;
    cost[0] = total;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        for (int b : g.down[static_cast<std::size_t>(nodes[i])]) {
            const int pb = g.pos[static_cast<std::size_t>(b)];
            total += (pb > q) - (pb < q);
        }
        cost[i + 1] = total;
    }
}

// The slot of least cost, ties to the one nearest `preferred`.
std::size_t bestSlot(const std::vector<long long>& cost, std::size_t preferred)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < cost.size(); ++i) {
        const auto distance = [&](std::size_t s) { return s > preferred ? s - preferred : preferred - s; };
        if (cost[i] < cost[best] || (cost[i] == cost[best] && distance(i) < distance(best)))
            best = i;
    }
    return best;
}

void insertAt(LayeredGraph& g, int v, std::size_t slot)
{
    auto& nodes = g.order[layerOf(g, v)];
    nodes.insert(nodes.begin() + static_cast<std::ptrdiff_t>(slot), v);
    refreshLayer(g, layerOf(g, v));
}

void takeOut(LayeredGraph& g, int v)
{
    auto& nodes = g.order[layerOf(g, v)];
    nodes.erase(nodes.begin() + g.pos[static_cast<std::size_t>(v)]);
    refreshLayer(g, layerOf(g, v));
}

// Puts the members above the root back one by one, each at its best slot below its tree neighbour (or, with
// `keepSlots`, at its slot in `slots`); returns the crossings their edges add.
long long placeAboveRoot(LayeredGraph& g, const PendantTree& tree, const std::vector<std::size_t>& slots,
                         bool keepSlots, std::vector<long long>& cost)
{
    long long added = 0;
    for (std::size_t k = 1; k < tree.members.size(); ++k) {
        const int m = tree.members[k];
        insertionCosts(g, layerOf(g, m), g.down[static_cast<std::size_t>(m)].front(), cost);
        const std::size_t preferred = std::min(slots[k], cost.size() - 1);
        const std::size_t slot = keepSlots ? preferred : bestSlot(cost, preferred);
        added += cost[slot];
        insertAt(g, m, slot);
    }
    return added;
}

} // namespace

std::vector<PendantTree> pendantTrees(const LayeredGraph& g)
{
    // A node is pendant when its one out-edge is all it feeds and everything feeding it is pendant; layers top
    // down decide every node's inputs first. Dummies below a pendant node are pendant too (it has one out-edge).
    std::vector<char> pendant(g.layer.size(), 0);
    for (const auto& nodes : g.order)
        for (int v : nodes) {
            const auto vi = static_cast<std::size_t>(v);
            pendant[vi] = g.down[vi].size() == 1 &&
                          std::all_of(g.up[vi].begin(), g.up[vi].end(),
                                      [&](int u) { return pendant[static_cast<std::size_t>(u)] != 0; });
        }
    std::vector<PendantTree> trees;
    for (std::size_t v = 0; v < g.layer.size(); ++v) {
        if (!pendant[v] || pendant[static_cast<std::size_t>(g.down[v].front())])
            continue;
        auto& tree = trees.emplace_back();
        tree.members.push_back(static_cast<int>(v));
        for (std::size_t k = 0; k < tree.members.size(); ++k) // breadth first: layer by layer upwards
            for (int u : g.up[static_cast<std::size_t>(tree.members[k])])
                tree.members.push_back(u);
    }
    return trees;
}

bool movePendantTrees(LayeredGraph& g, const std::vector<PendantTree>& trees)
{
    // Trying every root slot costs slots × the tree's layers; beyond this budget a tree stays where the sweeps
    // put it, which keeps this near-linear on wide graphs.
    constexpr std::size_t kBudget = 1 << 14;
    bool moved = false;
    std::vector<long long> cost;
    std::vector<std::size_t> slots;
    std::vector<std::pair<std::size_t, std::vector<int>>> saved;
    for (const auto& tree : trees) {
        const int root = tree.members.front();
        std::size_t work = 0;
        for (int m : tree.members)
            work += g.order[layerOf(g, m)].size();
        const std::size_t rootSlots = g.order[layerOf(g, root)].size();
        if (work * (tree.members.size() > 1 ? rootSlots : 1) > kBudget)
            continue;

        saved.clear();
        slots.clear();
        for (int m : tree.members) {
            const std::size_t l = layerOf(g, m);
            if (std::none_of(saved.begin(), saved.end(), [&](const auto& s) { return s.first == l; }))
                saved.emplace_back(l, g.order[l]);
            // Its slot among the nodes that stay: ties go back there, so an equal placement changes nothing.
            const int p = g.pos[static_cast<std::size_t>(m)];
            slots.push_back(static_cast<std::size_t>(
                p - std::count_if(tree.members.begin(), tree.members.end(), [&](int o) {
                    return layerOf(g, o) == l && g.pos[static_cast<std::size_t>(o)] < p;
                })));
        }
        for (int m : tree.members)
            takeOut(g, m);

        insertionCosts(g, layerOf(g, root), g.down[static_cast<std::size_t>(root)].front(), cost);
        const std::vector<long long> rootCost = cost;
        // Where the tree is now (its old slots), counted the way the candidates are.
        const auto placeRootAt = [&](std::size_t s, bool keepSlots) {
            if (tree.members.size() == 1) // a lone weight: nothing above it depends on the slot
                return rootCost[s];
            insertAt(g, root, s);
            const long long total = rootCost[s] + placeAboveRoot(g, tree, slots, keepSlots, cost);
            for (int m : tree.members)
                takeOut(g, m);
            return total;
        };
        const long long now = placeRootAt(slots.front(), true);
        long long best = now;
        std::size_t bestRoot = slots.front();
        for (std::size_t s = 0; s < rootCost.size() && best > 0; ++s)
            if (rootCost[s] < best)
                if (const long long total = placeRootAt(s, false); total < best) {
                    best = total;
                    bestRoot = s;
                }
        if (best < now) {
            insertAt(g, root, bestRoot);
            placeAboveRoot(g, tree, slots, false, cost);
            moved = true;
        } else {
            for (auto& [l, nodes] : saved) {
                g.order[l] = std::move(nodes);
                refreshLayer(g, l);
            }
        }
    }
    return moved;
}

} // namespace costscope::layout::detail
