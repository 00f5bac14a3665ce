// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

namespace costscope {

// Structural checks of a graph: duplicate ids, inputs that name no node, outputs that name no node, cycles,
// input counts outside the op's arity, rank over kMaxRank, negative dims and byte sizes that overflow 64 bits.
// Every problem found is returned, in graph order; an empty list means the graph is sound.
Diagnostics validateGraph(const Graph& g);

} // namespace costscope
