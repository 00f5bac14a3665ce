// SPDX-License-Identifier: MIT
// Costing of "Fused" nodes (edit/fuse_nodes.h): the fused kernel reads what enters the set and writes its exit once
// (the node's own inputs and output), and does the work of every member, each at the rate of its own kind.
#include "analysis/fused_kernel.h"
#include "analysis/op_cost_detail.h"

namespace costscope::opcost {

OpWork fused(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    auto kernel = fusedKernel(c.node.op);
    if (!kernel)
        return skippedWork(kernel.error().message + ": cannot count its FLOPs");
    auto parts = std::make_shared<FusedWork>();
    parts->opClass = kernel->opClass;
    parts->hostSync = kernel->hostSync;
    for (const Node& m : kernel->members.nodes) {
        if (m.op.info().opClass == OpClass::Leaf)
            continue;
        InputShapes shapes;
        for (NodeId in : m.inputs) {
            const Node* src = kernel->members.find(in);
            shapes.push_back(src ? &src->shape : nullptr);
        }
        OpWork part = opWork(m, shapes, c.b);
        if (part.skipped)
            return skippedWork("fused member " + std::to_string(m.id) + ": " + part.note);
        w.flops += part.flops;
        parts->members.push_back({m.op, std::move(part)});
    }
    w.note = "fused " + kernel->form + ": " + std::to_string(parts->members.size())
           + " ops in one kernel, bytes are what crosses the set's boundary";
    w.fused = std::move(parts);
    return w;
}

} // namespace costscope::opcost
