// SPDX-License-Identifier: MIT
#include "layout/group_tree.h"
#include <algorithm>
#include <unordered_map>

namespace costscope {

std::string effectiveScope(const Graph& g, std::size_t index)
{
    const Node& n = g.nodes[index];
    if (!n.scope.empty())
        return n.scope;
    for (NodeId in : n.inputs)
        if (const Node* src = g.find(in); src && src->op.kind == OpKind::Param && !src->scope.empty())
            return src->scope;
    return {};
}

int GroupTree::find(const std::string& path) const
{
    for (std::size_t i = 0; i < groups.size(); ++i)
        if (groups[i].path == path)
            return static_cast<int>(i);
    return -1;
}

GroupTree GroupTree::build(const Graph& g, std::size_t maxChildren)
{
    GroupTree t;
    t.groups.push_back({});
    std::unordered_map<std::string, int> byPath{{"", 0}};
    auto ensure = [&](const std::string& path) {
        int parent = 0;
        std::size_t start = 0;
        while (start < path.size()) {
            std::size_t slash = path.find('/', start);
            if (slash == std::string::npos)
                slash = path.size();
            if (slash > start) {
                const std::string prefix = path.substr(0, slash);
                auto [it, inserted] = byPath.emplace(prefix, static_cast<int>(t.groups.size()));
                if (inserted) {
                    Group grp;
                    grp.path = prefix;
                    grp.label = path.substr(start, slash - start);
                    grp.parent = parent;
                    grp.depth = t.groups[static_cast<std::size_t>(parent)].depth + 1;
                    t.groups.push_back(std::move(grp));
                    t.groups[static_cast<std::size_t>(parent)].children.push_back(it->second);
                }
                parent = it->second;
            }
            start = slash + 1;
        }
        return parent;
    };
    t.groupOfNode.resize(g.nodes.size(), 0);
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const int grp = ensure(effectiveScope(g, i));
        t.groupOfNode[i] = grp;
        t.groups[static_cast<std::size_t>(grp)].nodes.push_back(i);
    }
    const std::size_t original = t.groups.size();
    for (std::size_t gi = 0; gi < original; ++gi) {
        if (t.groups[gi].nodes.size() + t.groups[gi].children.size() <= maxChildren)
            continue;
        const std::vector<std::size_t> members = std::move(t.groups[gi].nodes);
        t.groups[gi].nodes.clear();
        const std::size_t chunkCount = (members.size() + maxChildren - 1) / maxChildren;
        for (std::size_t c = 0; c < chunkCount; ++c) {
            Group chunk;
            chunk.path = t.groups[gi].path + (t.groups[gi].path.empty() ? "#" : "/#") + std::to_string(c + 1);
            chunk.label = (t.groups[gi].label.empty() ? std::string("graph") : t.groups[gi].label) + " [" +
                          std::to_string(c + 1) + "/" + std::to_string(chunkCount) + "]";
            chunk.parent = static_cast<int>(gi);
            chunk.depth = t.groups[gi].depth + 1;
            const auto first = c * maxChildren;
            const auto last = std::min(members.size(), first + maxChildren);
            chunk.nodes.assign(members.begin() + static_cast<std::ptrdiff_t>(first),
                               members.begin() + static_cast<std::ptrdiff_t>(last));
            const int id = static_cast<int>(t.groups.size());
            for (std::size_t m : chunk.nodes)
                t.groupOfNode[m] = id;
            t.groups[gi].children.push_back(id);
            t.groups.push_back(std::move(chunk));
        }
    }
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        for (int grp = t.groupOfNode[i]; grp >= 0; grp = t.groups[static_cast<std::size_t>(grp)].parent)
            t.groups[static_cast<std::size_t>(grp)].allNodes.push_back(i);
    return t;
}

ViewGraph ViewGraph::build(const Graph& g, const GroupTree& tree, const std::vector<bool>& collapsed, bool showParams,
                           const std::vector<bool>* only)
{
    ViewGraph v;
    // Outermost collapsed group containing each group (groups are stored parents first, except chunks, which
    // are appended later but still after their parent).
    std::vector<int> rep(tree.groups.size(), -1);
    for (std::size_t gi = 1; gi < tree.groups.size(); ++gi) {
        const int parent = tree.groups[gi].parent;
        rep[gi] = parent > 0 && rep[static_cast<std::size_t>(parent)] >= 0 ? rep[static_cast<std::size_t>(parent)]
                  : gi < collapsed.size() && collapsed[gi]            ? static_cast<int>(gi)
                                                                      : -1;
    }
    std::vector<int> unitOfGroup(tree.groups.size(), -1);
    v.unitOfNode.assign(g.nodes.size(), -1);
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        if (only && (i >= only->size() || !(*only)[i]))
            continue;
        const int r = rep[static_cast<std::size_t>(tree.groupOfNode[i])];
        if (r >= 0) {
            auto& u = unitOfGroup[static_cast<std::size_t>(r)];
            if (u < 0) {
                u = static_cast<int>(v.units.size());
                v.units.push_back({true, r, 0, "g:" + tree.groups[static_cast<std::size_t>(r)].path});
            }
            v.unitOfNode[i] = u;
            continue;
        }
        if (!showParams && g.nodes[i].op.kind == OpKind::Param)
            continue;
        v.unitOfNode[i] = static_cast<int>(v.units.size());
        v.units.push_back({false, -1, i, "n:" + std::to_string(g.nodes[i].id)});
    }
    std::unordered_map<long long, std::size_t> seen;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const int to = v.unitOfNode[i];
        if (to < 0)
            continue;
        for (NodeId in : g.nodes[i].inputs) {
            const auto src = g.indexOf(in);
            if (!src)
                continue;
            const int from = v.unitOfNode[*src];
            if (from < 0 || from == to)
                continue;
            const long long key = static_cast<long long>(from) * (1LL << 32) + to;
            if (auto it = seen.find(key); it != seen.end()) {
                ++v.edges[it->second].multiplicity;
                continue;
            }
            seen.emplace(key, v.edges.size());
            v.edges.push_back({from, to, *src, 1});
        }
    }
    return v;
}

std::vector<bool> initialCollapse(const GroupTree& tree, std::size_t nodeCount, std::size_t budget)
{
    std::vector<bool> collapsed(tree.groups.size(), false);
    if (nodeCount <= budget)
        return collapsed;
    int maxDepth = 0;
    for (const auto& grp : tree.groups)
        maxDepth = std::max(maxDepth, grp.depth);
    // Collapse the deepest level that still brings the visible count under budget; else the top level.
    for (int depth = maxDepth; depth >= 1; --depth) {
        std::size_t visible = 0;
        for (std::size_t gi = 1; gi < tree.groups.size(); ++gi) {
            const auto& grp = tree.groups[gi];
            if (grp.depth == depth)
                ++visible;
            else if (grp.depth < depth)
                visible += grp.nodes.size();
        }
        visible += tree.groups[0].nodes.size();
        if (visible <= budget || depth == 1) {
            // The levels below collapse too: opening one of these groups shows its subgroups, not all it holds.
            for (std::size_t gi = 1; gi < tree.groups.size(); ++gi)
                collapsed[gi] = tree.groups[gi].depth >= depth;
            return collapsed;
        }
    }
    return collapsed;
}

} // namespace costscope
