// SPDX-License-Identifier: MIT
// Costing of "Fused" nodes (edit/fuse_nodes.h): the fused kernel reads what enters the set and writes its exit once
// (the node's own inputs and output), and does the work of every member.
#include "analysis/op_cost_detail.h"
#include "formats/rlx_json.h"

#include <nlohmann/json.hpp>

namespace costscope::opcost {

OpWork fused(const Ctx& c)
{
    OpWork w;
    if (!addIoBytes(c, w))
        return w;
    const auto payload = nlohmann::json::parse(c.node.op.unknownPayload, nullptr, false);
    if (payload.is_discarded() || !payload.contains("members"))
        return skippedWork("fused node without its members: cannot count its FLOPs");
    auto members = parseRlxJson(payload["members"].dump());
    if (!members)
        return skippedWork("fused node's members do not load: " + members.error().message);
    std::size_t ops = 0;
    for (const Node& m : members->nodes) {
        if (m.op.info().opClass == OpClass::Leaf)
            continue;
        InputShapes shapes;
        for (NodeId in : m.inputs) {
            const Node* src = members->find(in);
            shapes.push_back(src ? &src->shape : nullptr);
        }
        const OpWork part = opWork(m, shapes, c.b);
        if (part.skipped)
            return skippedWork("fused member " + std::to_string(m.id) + ": " + part.note);
        w.flops += part.flops;
        ++ops;
    }
    w.note = "fused: " + std::to_string(ops) + " ops in one kernel, bytes are what crosses the set's boundary";
    return w;
}

} // namespace costscope::opcost
