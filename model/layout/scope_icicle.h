// SPDX-License-Identifier: MIT
#pragma once
// Qt-free: the icicle of cost by scope (speedscope's "left heavy" view of a profile, here of a graph's costs).
#include "layout/group_tree.h"
#include <cstddef>
#include <string>
#include <vector>

namespace costscope {

// One bar of the icicle: a scope group, or a node inside its innermost group. Rows go down the scope levels (the
// whole graph is row 0); along a row, bars are laid end to end in units of time, children under their parent,
// heaviest first, so that each bar's width is its share of the total.
struct IcicleCell {
    int group = -1;       // the group shown, or -1 for a node
    std::size_t node = 0; // the graph position, when group is -1
    int row = 0;
    double startNs = 0; // offset from the left edge of the whole graph's bar
    double ns = 0;      // the bar's width: the time of the group's nodes, or the node's
    std::string label;
};

// The icicle of `tree` with `nsByNode` (one per graph position; a negative or missing time counts 0). Bars of 0 ns
// are left out. Parents come before their children.
std::vector<IcicleCell> scopeIcicle(const GroupTree& tree, const Graph& g, const std::vector<double>& nsByNode);

} // namespace costscope
