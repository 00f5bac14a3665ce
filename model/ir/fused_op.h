// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string_view>

namespace costscope {

// The op name of a node that stands for a fused set of nodes (edit/fuse_nodes.h). Its payload is
// {"members": <RLX HIR JSON graph of the members, entering tensors as Inputs with their producers' ids>}.
inline constexpr std::string_view kFusedOpName = "Fused";

inline bool isFusedOp(const Op& op) { return op.kind == OpKind::Unknown && op.name == kFusedOpName; }
inline bool isFusedNode(const Node& n) { return isFusedOp(n.op); }

} // namespace costscope
