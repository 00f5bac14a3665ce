// SPDX-License-Identifier: MIT
#include "jobs/batched_graph.h"

#include "ir/rebatch.h"

#include <algorithm>

namespace costscope {

namespace {
// The batch the graph's first Input fixes (its static dim 0), or 0.
std::int64_t ownBatch(const Graph& g)
{
    for (const Node& n : g.nodes)
        if (n.op.kind == OpKind::Input)
            return n.shape.rank() > 0 && n.shape.dims[0].isStatic() ? n.shape.dims[0].value : 0;
    return 0;
}

// Why rebatching stopped at a node, with the parameter or constant that pins the batch when one of its operands
// holds it (an ONNX export's attention mask, say, exported for batch 2).
std::string whyNot(const Graph& g, const Diagnostic& e, std::int64_t own)
{
    std::string why = e.message;
    if (!e.node)
        return why;
    why = "node " + std::to_string(*e.node) + (e.nodeName.empty() ? "" : " (" + e.nodeName + ")") + ": " + why;
    const Node* at = g.find(*e.node);
    for (NodeId in : at ? at->inputs : std::vector<NodeId>{}) {
        const Node* src = g.find(in);
        if (src && (src->op.kind == OpKind::Param || src->op.kind == OpKind::Constant) && src->shape.rank() > 0
            && src->shape.dims[0] == Dim::fixed(own))
            return why + "; its operand node " + std::to_string(src->id) + " (" + src->op.label() + " "
                 + src->shape.toString() + ") holds batch " + std::to_string(own) + " as data";
    }
    return why;
}
} // namespace

std::optional<std::int64_t> fixedBatch(const Graph& g)
{
    const auto symbols = g.symbols();
    if (std::find(symbols.begin(), symbols.end(), "batch") != symbols.end())
        return std::nullopt;
    const std::int64_t own = ownBatch(g);
    return own > 0 ? std::optional<std::int64_t>(own) : std::nullopt;
}

BatchedGraph graphAtBatch(const std::shared_ptr<const Graph>& g, std::int64_t batch)
{
    if (!g)
        return {};
    const auto symbols = g->symbols();
    if (std::find(symbols.begin(), symbols.end(), "batch") != symbols.end())
        return {g, {}, false};
    const std::int64_t own = ownBatch(*g);
    auto rebatched = rebatch(*g, batch);
    if (!rebatched)
        return {g, "the batch cannot change on this graph: " + whyNot(*g, rebatched.error(), own), true};
    if (own == batch)
        return {g, {}, false};
    return {std::make_shared<const Graph>(std::move(*rebatched)),
            "rebatched from " + std::to_string(own) + " to " + std::to_string(batch)
                + ": its inputs fix the batch, so their leading dim was set and every shape inferred again",
            false};
}

} // namespace costscope
