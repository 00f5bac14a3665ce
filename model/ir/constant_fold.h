// SPDX-License-Identifier: MIT
#pragma once
// Constant folding of ConstantOfShape: a fill whose shape is a constant is the same tensor on every run, so the
// backends make it once when they compile (ONNX Runtime's constant folding does the same at session start) and the
// cost model prices it as a stored tensor: no kernel, no launch. ONNX files written with their weights replaced by
// fills (the "light" copies of model-zoo networks, 239 fills in ResNet-50) then run as the real network would;
// before, the CUDA backend launched every fill on every run, about a third of ResNet-50's time at batch 1.
#include "ir/graph.h"

namespace costscope {

// A ConstantOfShape whose shape input is a Constant or Param with data, whose own shape is static, and whose dtype
// the fold can fill (F32, F64, I64, I32, Bool, U8).
bool isFoldableConstant(const Graph& g, const Node& node);

// Whether any top-level node of `g` is a foldable ConstantOfShape.
bool hasFoldableConstants(const Graph& g);

// `g` with every foldable ConstantOfShape replaced by a Constant holding its values (same id, name, shape); the
// shape inputs stay as leaves. Subgraphs are left as they are.
Graph withConstantsFolded(const Graph& g);

} // namespace costscope
