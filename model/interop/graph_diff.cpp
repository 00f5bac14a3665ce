// SPDX-License-Identifier: MIT
#include "interop/graph_diff.h"

#include <numeric>
#include <unordered_map>

namespace costscope {

namespace {

std::unordered_map<std::string, std::size_t> uniqueNames(const Graph& g)
{
    std::unordered_map<std::string, std::size_t> byName;
    std::unordered_map<std::string, int> seen;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const std::string name = g.nodes[i].displayName();
        if (!name.empty() && ++seen[name] == 1)
            byName[name] = i;
    }
    for (const auto& [name, n] : seen)
        if (n > 1)
            byName.erase(name);
    return byName;
}

std::string describeChange(const Node& x, const Node& y)
{
    std::string what;
    if (x.op.kind != y.op.kind || x.op.subOp() != y.op.subOp())
        what = "op " + x.op.label() + " -> " + y.op.label();
    else if (!(x.op == y.op))
        what = "attributes of " + x.op.label();
    if (!(x.shape == y.shape))
        what += (what.empty() ? "" : "; ") + std::string("shape ") + x.shape.toString() + " -> " + y.shape.toString();
    if (x.inputs.size() != y.inputs.size())
        what += (what.empty() ? "" : "; ") + std::to_string(x.inputs.size()) + " -> " +
                std::to_string(y.inputs.size()) + " inputs";
    return what;
}

std::vector<std::size_t> order(const Graph& g)
{
    auto topo = g.topologicalOrder();
    if (topo)
        return *topo;
    std::vector<std::size_t> all(g.nodes.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
}

} // namespace

std::size_t GraphDiff::changedCount() const
{
    std::size_t n = 0;
    for (const NodePair& p : matched)
        n += p.changed;
    return n;
}

GraphDiff diffGraphs(const Graph& a, const Graph& b)
{
    std::vector<std::optional<std::size_t>> aToB(a.nodes.size()), bToA(b.nodes.size());
    GraphDiff d;
    auto pair = [&](std::size_t i, std::size_t j, MatchKind how) {
        aToB[i] = j;
        bToA[j] = i;
        const std::string what = describeChange(a.nodes[i], b.nodes[j]);
        d.matched.push_back({i, j, how, !what.empty(), what});
    };
    const auto namesA = uniqueNames(a);
    for (const auto& [name, j] : uniqueNames(b))
        if (auto it = namesA.find(name); it != namesA.end())
            pair(it->second, j, MatchKind::Name);

    // Structural key in B's index space: op label, shape and the B indices of the inputs. An A node has one only
    // when all its inputs are matched already; B's inputs are B indices as they are.
    auto keyA = [&](std::size_t i) {
        std::string k = a.nodes[i].op.label() + '|' + a.nodes[i].shape.toString() + '|';
        for (NodeId in : a.nodes[i].inputs) {
            const auto idx = a.indexOf(in);
            if (!idx || !aToB[*idx])
                return std::string();
            k += std::to_string(*aToB[*idx]) + ',';
        }
        return k;
    };
    auto keyB = [&](std::size_t j) {
        std::string k = b.nodes[j].op.label() + '|' + b.nodes[j].shape.toString() + '|';
        for (NodeId in : b.nodes[j].inputs) {
            const auto idx = b.indexOf(in);
            if (!idx)
                return std::string();
            k += std::to_string(*idx) + ',';
        }
        return k;
    };
    auto structuralPass = [&] {
        for (std::size_t j : order(b)) {
            if (bToA[j])
                continue;
            const std::string kb = keyB(j);
            for (std::size_t i = 0; i < a.nodes.size() && !kb.empty(); ++i)
                if (!aToB[i] && keyA(i) == kb) {
                    pair(i, j, MatchKind::Structure);
                    break;
                }
        }
    };
    structuralPass();
    bool byId = false;
    for (std::size_t j = 0; j < b.nodes.size(); ++j) {
        if (bToA[j])
            continue;
        const auto i = a.indexOf(b.nodes[j].id);
        if (i && !aToB[*i] && a.nodes[*i].shape == b.nodes[j].shape) {
            pair(*i, j, MatchKind::Id);
            byId = true;
        }
    }
    if (byId)
        structuralPass();
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (!aToB[i])
            d.removed.push_back(i);
    for (std::size_t j = 0; j < b.nodes.size(); ++j)
        if (!bToA[j])
            d.added.push_back(j);
    return d;
}

std::vector<DeviceCostDiff> costDiff(const GraphDiff& d, const std::vector<GraphCost>& costsA,
                                     const std::vector<GraphCost>& costsB)
{
    std::vector<DeviceCostDiff> out;
    for (std::size_t k = 0; k < costsA.size() && k < costsB.size(); ++k) {
        const GraphCost& ca = costsA[k];
        const GraphCost& cb = costsB[k];
        auto costOf = [](const GraphCost& c, std::size_t i) { return i < c.nodes.size() ? c.nodes[i].totalNs : 0.0; };
        DeviceCostDiff dd{std::string(deviceName(ca.device)), ca.totalNs, cb.totalNs, {}};
        for (const NodePair& p : d.matched)
            dd.nodes.push_back({p.a, p.b, costOf(ca, p.a), costOf(cb, p.b)});
        for (std::size_t i : d.removed)
            dd.nodes.push_back({i, std::nullopt, costOf(ca, i), 0.0});
        for (std::size_t j : d.added)
            dd.nodes.push_back({std::nullopt, j, 0.0, costOf(cb, j)});
        out.push_back(std::move(dd));
    }
    return out;
}

} // namespace costscope
