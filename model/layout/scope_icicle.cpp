// SPDX-License-Identifier: MIT
#include "layout/scope_icicle.h"
#include <algorithm>

namespace costscope {
namespace {

class IcicleBuilder {
public:
    IcicleBuilder(const GroupTree& tree, const Graph& g, const std::vector<double>& ns) : m_tree(tree), m_g(g), m_ns(ns)
    {
    }

    std::vector<IcicleCell> run()
    {
        if (!m_tree.groups.empty())
            place(0, 0, 0.0);
        return std::move(m_cells);
    }

private:
    double nodeNs(std::size_t node) const { return node < m_ns.size() ? std::max(m_ns[node], 0.0) : 0.0; }

    double groupNs(int group) const
    {
        double sum = 0;
        for (std::size_t n : m_tree.groups[static_cast<std::size_t>(group)].allNodes)
            sum += nodeNs(n);
        return sum;
    }

    void place(int group, int row, double start)
    {
        const auto& grp = m_tree.groups[static_cast<std::size_t>(group)];
        const double total = groupNs(group);
        if (total <= 0)
            return;
        m_cells.push_back({group, 0, row, start, total, group == 0 ? m_g.name : grp.label});
        // Children (groups and the group's own nodes) heaviest first, as speedscope's left-heavy view.
        struct Child {
            int group;
            std::size_t node;
            double ns;
        };
        std::vector<Child> children;
        for (int c : grp.children)
            children.push_back({c, 0, groupNs(c)});
        for (std::size_t n : grp.nodes)
            children.push_back({-1, n, nodeNs(n)});
        std::stable_sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.ns > b.ns; });
        double at = start;
        for (const Child& c : children) {
            if (c.ns <= 0)
                continue;
            if (c.group >= 0) {
                place(c.group, row + 1, at);
            } else {
                const Node& n = m_g.nodes[c.node];
                m_cells.push_back(
                    {-1, c.node, row + 1, at, c.ns, n.displayName().empty() ? n.op.label() : n.displayName()});
            }
            at += c.ns;
        }
    }

    const GroupTree& m_tree;
    const Graph& m_g;
    const std::vector<double>& m_ns;
    std::vector<IcicleCell> m_cells;
};

} // namespace

std::vector<IcicleCell> scopeIcicle(const GroupTree& tree, const Graph& g, const std::vector<double>& nsByNode)
{
    return IcicleBuilder(tree, g, nsByNode).run();
}

} // namespace costscope
