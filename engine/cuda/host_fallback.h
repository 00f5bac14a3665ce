// SPDX-License-Identifier: MIT
#pragma once
// Nodes the CUDA backend has no kernel for, or whose kernel refuses them (a dtype or attribute it lacks), run on the
// host instead, each as one step of the plan
// (cuda/lower_host_fallback.cpp): the CPU backend's kernel (cpu/kernel.h) between copies of its inputs to the host
// and of its output back, all on the plan's stream, as ONNX Runtime's CUDA provider hands such nodes to its CPU
// provider. Which nodes may is decided here, without a GPU.

#include "ir/graph.h"

#include <optional>
#include <string>

namespace costscope::cuda {

// Whether the CUDA backend runs node n (neither a leaf nor a reshape-like alias) with a kernel of its own: its kind
// has a lowering, and for an op imported under its ONNX name (OpKind::Unknown), lowerOnnxByName takes that name.
bool cudaLowers(const Node& n);
// Off where the environment sets COSTSCOPE_CUDA_HOST_FALLBACK=0: a node the backend cannot run then fails the
// compile, as before host fallbacks.
bool hostFallbackRequested();
// Why node n, which the CUDA backend does not lower (or whose lowering refused it), cannot run as a host step; nullopt
// when it can. `shapeKnown`: every dim of its output resolved when the plan was compiled (the plan sizes the output's
// buffer then, and the host step must fill exactly that). `requested`: hostFallbackRequested().
std::optional<std::string> hostFallbackRefusal(const Node& n, bool shapeKnown, bool requested);

} // namespace costscope::cuda
