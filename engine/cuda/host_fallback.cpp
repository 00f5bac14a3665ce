// SPDX-License-Identifier: MIT
#include "cuda/host_fallback.h"
#include "control_flow.h"
#include "cpu/kernel.h"
#include "cuda/cuda_lower.h"

#include <cstdlib>

namespace costscope::cuda {

bool cudaLowers(const Node& n)
{
    return findLowering(n.op.kind) && (n.op.kind != OpKind::Unknown || lowersOnnxByName(n.op.name));
}

bool hostFallbackRequested()
{
    const char* env = std::getenv("COSTSCOPE_CUDA_HOST_FALLBACK");
    return !env || std::string(env) != "0";
}

std::optional<std::string> hostFallbackRefusal(const Node& n, bool shapeKnown, bool requested)
{
    if (!requested)
        return "host fallbacks are off (COSTSCOPE_CUDA_HOST_FALLBACK=0)";
    // If, Loop and Scan run around the plan (control_flow_plan.h); one that reaches a step has lost its bodies.
    if (isControlFlow(n) || !n.subgraphs.empty())
        return "an op with subgraphs runs only as control flow around the plan";
    if (auto kernel = cpu::kernelForNode(n); !kernel)
        return "the CPU backend cannot run it either (" + kernel.error().message + ")";
    if (!shapeKnown)
        return "its output shape is not known when the plan is compiled, and the plan allocates every output then";
    return std::nullopt;
}

} // namespace costscope::cuda
