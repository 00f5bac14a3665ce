// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <vector>

namespace costscope::edit {

// Replaces a connected, convex set of nodes with one "Fused" node: the question "what if these were one kernel?"
// asked of the graph itself. The fused node keeps the id, shape and consumers of the set's one exit (the member
// whose output is used outside the set or is a graph output), reads the distinct tensors that enter the set, and
// carries the members as an RLX HIR JSON subgraph in its payload (op "Fused", an op RLX does not know, so RLX JSON
// saves and reloads it verbatim). Costing: the kernels the members make (analysis/fused_kernel.h), priced by both
// cost models over the boundary bytes, with the IO profile fuseWhatIf predicts. Errors: what fuseWhatIf refuses, a set with more than one exit, leaves only.
Result<Graph> fuseNodes(const Graph& g, const std::vector<NodeId>& ids, NodeId* fusedId = nullptr);

} // namespace costscope::edit
