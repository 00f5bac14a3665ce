// SPDX-License-Identifier: MIT
#pragma once

// If, Loop and Scan on a device backend (Vulkan, CUDA). Those backends fix every tensor's dims when they compile,
// and a Loop's outputs are known only once it ran; so the graph is cut at its control-flow nodes into stretches
// that the backend compiles as plans of their own (once per signature of their inputs, dims included), and the
// control-flow nodes run on the host through runControlFlow (control_flow.h), their bodies compiled by the same
// backend. Values cross between stretches, and a body's loop-carried values between iterations, through the host.

#include "control_flow.h"

namespace costscope {

// A backend's own compile step for a graph without control flow.
using CompileStraight = std::function<Result<std::unique_ptr<ExecutablePlan>>(const Graph&, const Bindings&)>;

// The plan of `g` (which has If, Loop or Scan nodes). Stretches whose inputs' dims are known from the stated shapes
// are compiled now, so that an op the backend lacks is named at compile time; the others on first run.
Result<std::unique_ptr<ExecutablePlan>> compileAroundControlFlow(const Graph& g, const Bindings& bindings,
                                                                 CompileStraight compile);

} // namespace costscope
