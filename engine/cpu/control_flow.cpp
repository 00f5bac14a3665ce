// SPDX-License-Identifier: MIT
// ONNX If, Loop and Scan on the CPU backend: the iteration logic every backend shares (control_flow.h), each body
// run as a CpuPlan of its own on the backend's thread pool. The importer gives a node per ONNX output; each computes
// the whole op and keeps its own output.
#include "control_flow.h"
#include "cpu/cpu_plan.h"
#include "cpu/onnx_named_kernels.h"

namespace costscope::cpu {

KernelStatus runControlFlowOp(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const std::shared_ptr<ThreadPool> pool(std::shared_ptr<ThreadPool>{}, &ctx.pool); // the backend's, not owned
    const MakeSubgraphRunner makeRunner = [&pool](const Subgraph& sub) -> std::unique_ptr<SubgraphRunner> {
        return std::make_unique<PlanSubgraphRunner>(
            sub, [&pool](const Graph& body) { return compilePlan(pool, body, Bindings{}); }, false);
    };
    auto outputs = runControlFlow(ctx.node, in, makeRunner);
    if (!outputs)
        return outputs.error();
    auto picked = pickControlFlowOutput(*outputs, ctx.node, ctx.bindings);
    if (!picked)
        return picked.error();
    out = std::move(*picked);
    return ok();
}

} // namespace costscope::cpu
