// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <string_view>

namespace costscope {

// The op name of a node that stands for a fused set of nodes (edit/fuse_nodes.h). Its payload is
// {"members": <RLX HIR JSON graph of the members, entering tensors as Inputs with their producers' ids>}.
inline constexpr std::string_view kFusedOpName = "Fused";

inline bool isFusedNode(const Node& n) { return n.op.kind == OpKind::Unknown && n.op.name == kFusedOpName; }

} // namespace costscope
