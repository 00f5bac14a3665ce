// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

namespace costscope::onnx_import {

// Grouping path of each node, so that the canvas can fold transformer layers:
//  - a name with '/' (torch.onnx's "/h.0/attn/MatMul") → its path without the leading '/' and the last part
//    ("h.0/attn");
//  - a leaf (Param/Constant/Input) with a dotted name ("transformer.h.0.ln_1.weight") → dots become '/' and the last
//    part goes ("transformer/h/0/ln_1");
//  - any other node → the scope of its first Param/Constant input that has one, else of its first input that has
//    one (so Reshape/Transpose chains stay in the layer whose weights they follow), else none.
void assignScopes(Graph& g);

} // namespace costscope::onnx_import
