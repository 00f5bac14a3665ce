// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/fusion_gate.h"
#include "ir/diagnostic.h"
#include "ir/graph.h"

#include <vector>

namespace costscope {

struct FuseVerdict {
    FusionTarget target = FusionTarget::Cpu;
    double scoreNs = 0;
    double minGainNs = 0;
    bool shouldFuse = false;
};

// The generic "what if these nodes were one kernel" question, answered with RLX's IO fusion gate.
struct FuseWhatIf {
    std::vector<NodeId> nodes; // the set, in graph order
    IoProfile before;          // the graph as it is
    IoProfile after;           // with the set as one kernel
    FusionBenefit benefit;
    std::vector<FuseVerdict> verdicts; // one per fusion target, in fusionTargets() order
};

// The fused profile replaces the set's own contributions with one kernel:
// - launches: 1 (0 when the set holds only metadata ops, which launch nothing);
// - traffic: the bytes crossing the set's boundary: each distinct outside tensor the set reads (a fused kernel
//   reads a tensor once however often the set uses it) plus each set node whose output is read outside the set
//   or is a graph output;
// - sync points: the set's host-sync ops collapse to one (the fused kernel still hands over to the host once);
// - host output bytes: unchanged (fusing does not change what the graph returns).
// Errors: an empty set, an unknown id, a set that is not connected, or one that is not convex (a path leaves
// the set and comes back, so no single kernel can hold it).
Result<FuseWhatIf> fuseWhatIf(const Graph& g, const std::vector<NodeId>& nodes, const Bindings& b = {});

} // namespace costscope
