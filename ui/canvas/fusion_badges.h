// SPDX-License-Identifier: MIT
#pragma once
#include "ir/graph.h"
#include <map>
#include <string>

namespace costscope {

class GraphScene;

// The badge text of each node RLX leaves unfused: "<reason>: <hint>" per missed fusion (missedFusions), one line each.
std::map<NodeId, std::string> fusionBadgeHints(const Graph& g);

// Badges every graph the window shows (opened or edited) with its missed fusions.
void installFusionBadges(GraphScene* scene);

} // namespace costscope
