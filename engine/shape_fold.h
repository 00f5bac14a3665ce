// SPDX-License-Identifier: MIT
#pragma once

// Shape folding before a device plan is compiled, as ONNX Runtime folds constants at session start. A graph that
// computes shapes (Shape -> Gather -> Concat -> Reshape, Range over a Shape's dims: the bodies of ONNX functions
// expanded by the exporter) gives its Reshapes, Ranges and Expands shapes that depend only on its inputs' shapes,
// never on their values; the CPU backend finds them as it runs, but the CUDA and Vulkan backends size every tensor
// when they compile. Under the plan's bindings those shapes are known: each Shape and Size of an input whose dims
// are known becomes a Constant, each node computed from constants alone (deterministic, small) becomes a Constant of
// its value, and the shapes that follow are inferred again (ir/shape_inference.h).

#include "backend.h"
#include "ir/graph.h"

#include <functional>
#include <memory>
#include <optional>

namespace costscope {

// `g` with its shape computations folded for `bindings`, or nullopt where that changes nothing (a graph whose
// shapes are all known and which computes none keeps its plan). Node ids, names and graph outputs stay; a node that
// reads random numbers, runs a subgraph, or yields more than kMaxFoldedShapeElements elements is never folded.
// Folding the result again changes nothing.
std::optional<Graph> withShapesFolded(const Graph& g, const Bindings& bindings);

// The most elements a folded node may hold.
inline constexpr std::uint64_t kMaxFoldedShapeElements = 65536;

using CompileGraph = std::function<Result<std::unique_ptr<ExecutablePlan>>(const Graph&)>;
// How a device backend compiles `g` (`compile` compiles a graph as given): with its shapes folded where that changes
// it (and its fills folded where their shapes became constant, ir/constant_fold.h), else as given. Where the folded
// graph does not compile the graph as given is tried too, so that folding never costs a graph its plan; where
// neither compiles, the folded graph's error is the one returned (it names what the backend still lacks).
Result<std::unique_ptr<ExecutablePlan>> compileWithShapesFolded(const Graph& g, const Bindings& bindings,
                                                                const CompileGraph& compile);

} // namespace costscope
