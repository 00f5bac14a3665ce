// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

namespace costscope::onnx_import {

// Grouping path of each node, so that the canvas can fold transformer layers:
//  - a name with '/' (torch.onnx's "/h.0/attn/MatMul") → its path without the leading '/' and the last part
//    ("h.0/attn");
//  - a leaf (Param/Constant/Input) with a dotted name ("transformer.h.0.ln_1.weight") → dots become '/' and the last
//    part goes ("transformer/h/0/ln_1");
//  - any other node → the scope of an input leaf that only this node reads (a weight shared by many nodes tells
//    nothing; an unnamed own weight gives no scope), else the common '/'-prefix of all its non-leaf inputs' scopes
//    (Reshape/Transpose chains stay in the layer whose weights they follow; an Add joining h/0/attn and h/0/mlp
//    lands in h/0; an input without scope gives none).
void assignScopes(Graph& g);

} // namespace costscope::onnx_import
