// SPDX-License-Identifier: MIT
#include "analysis/fuse_what_if.h"

#include "analysis/io_bytes.h"

#include <set>

namespace costscope {

namespace {
using Positions = std::set<std::size_t>;

Diagnostic atNode(const Graph& g, std::size_t pos, std::string msg)
{
    const Node& n = g.nodes[pos];
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, n.displayName(), std::move(msg));
}

// Positions reachable from `start` through undirected edges that stay inside `set`.
Positions component(const Graph& g, const Positions& set, std::size_t start,
                    const std::vector<std::vector<std::size_t>>& users)
{
    Positions seen{start};
    std::vector<std::size_t> todo{start};
    while (!todo.empty()) {
        const std::size_t i = todo.back();
        todo.pop_back();
        std::vector<std::size_t> next = users[i];
        for (NodeId in : g.nodes[i].inputs)
            if (auto j = g.indexOf(in))
                next.push_back(*j);
        for (std::size_t j : next)
            if (set.count(j) && seen.insert(j).second)
                todo.push_back(j);
    }
    return seen;
}

// An outside node on a path from the set back into the set, if any.
std::optional<std::size_t> convexityBreaker(const Positions& set, const std::vector<std::vector<std::size_t>>& users)
{
    Positions seen;
    std::vector<std::size_t> todo;
    for (std::size_t i : set)
        for (std::size_t u : users[i])
            if (!set.count(u) && seen.insert(u).second)
                todo.push_back(u);
    while (!todo.empty()) {
        const std::size_t i = todo.back();
        todo.pop_back();
        for (std::size_t u : users[i]) {
            if (set.count(u))
                return i;
            if (seen.insert(u).second)
                todo.push_back(u);
        }
    }
    return std::nullopt;
}

IoProfile fusedProfile(const Graph& g, const Positions& set, const IoProfile& before, const Bindings& b,
                       const std::vector<std::vector<std::size_t>>& users)
{
    IoProfile after = before;
    bool launches = false, syncs = false;
    std::set<std::size_t> outsideReads;
    std::uint64_t boundary = 0;
    for (std::size_t i : set) {
        const Node& n = g.nodes[i];
        for (NodeId in : n.inputs)
            if (auto j = g.indexOf(in); j && !set.count(*j))
                outsideReads.insert(*j);
        bool readOutside = g.isOutput(n.id);
        for (std::size_t u : users[i])
            readOutside = readOutside || !set.count(u);
        if (readOutside)
            boundary = saturatingAdd(boundary, tensorBytes(n.shape, b));
        if (n.op.info().rlxMetadata)
            continue;
        launches = true;
        --after.kernelLaunches;
        after.deviceTrafficBytes -= nodeTrafficBytes(g, n, b);
        if (isRlxHostSync(n.op)) {
            syncs = true;
            --after.syncPoints;
        }
    }
    for (std::size_t j : outsideReads)
        boundary = saturatingAdd(boundary, tensorBytes(g.nodes[j].shape, b));
    after.kernelLaunches += launches ? 1 : 0;
    after.syncPoints += syncs ? 1 : 0;
    after.deviceTrafficBytes = saturatingAdd(after.deviceTrafficBytes, boundary);
    return after;
}
} // namespace

Result<FuseWhatIf> fuseWhatIf(const Graph& g, const std::vector<NodeId>& nodes, const Bindings& b)
{
    if (nodes.empty())
        return Diagnostic::error("no nodes to fuse");
    Positions set;
    for (NodeId id : nodes) {
        auto pos = g.indexOf(id);
        if (!pos)
            return Diagnostic::error("no node with id " + std::to_string(id) + " to fuse");
        set.insert(*pos);
    }
    const auto users = g.consumers();
    const Positions reached = component(g, set, *set.begin(), users);
    for (std::size_t i : set)
        if (!reached.count(i))
            return atNode(g, i, "is not connected to node " + std::to_string(g.nodes[*set.begin()].id)
                                    + " within the set: only a connected set of nodes can be fused");
    if (auto breaker = convexityBreaker(set, users))
        return atNode(g, *breaker, "lies outside the set on a path that leaves it and comes back: the set "
                                   "cannot be one kernel (add this node or drop the nodes after it)");

    FuseWhatIf w;
    for (std::size_t i : set)
        w.nodes.push_back(g.nodes[i].id);
    w.before = ioProfile(g, b);
    w.after = fusedProfile(g, set, w.before, b, users);
    w.benefit = FusionBenefit::between(w.before, w.after);
    for (FusionTarget t : fusionTargets()) {
        const IoFusionGate gate = ioFusionGate(t);
        w.verdicts.push_back({t, gate.score(w.benefit), gate.minGainNs, gate.shouldFuse(w.benefit)});
    }
    return w;
}

} // namespace costscope
