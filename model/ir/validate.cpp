// SPDX-License-Identifier: MIT
#include "ir/validate.h"

#include <unordered_set>

namespace costscope {

namespace {
Diagnostic nodeError(const Node& n, std::string msg)
{
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, n.displayName(), std::move(msg));
}

std::string arityText(const OpInfo& info)
{
    if (info.maxInputs < 0)
        return "at least " + std::to_string(info.minInputs);
    if (info.minInputs == info.maxInputs)
        return std::to_string(info.minInputs);
    return std::to_string(info.minInputs) + " to " + std::to_string(info.maxInputs);
}

void checkNode(const Graph& g, const Node& n, Diagnostics& out)
{
    for (std::size_t i = 0; i < n.inputs.size(); ++i)
        if (!g.find(n.inputs[i]))
            out.push_back(nodeError(n, "input " + std::to_string(i) + " refers to node " + std::to_string(n.inputs[i])
                                           + ", which does not exist"));
    const OpInfo& info = n.op.info();
    const int count = static_cast<int>(n.inputs.size());
    if (n.op.kind != OpKind::Unknown && (count < info.minInputs || (info.maxInputs >= 0 && count > info.maxInputs)))
        out.push_back(nodeError(n, n.op.name + " takes " + arityText(info) + " input(s), has "
                                       + std::to_string(count)));
    if (n.shape.rank() > kMaxRank)
        out.push_back(nodeError(n, "rank " + std::to_string(n.shape.rank()) + " is over the limit of "
                                       + std::to_string(kMaxRank)));
    for (std::size_t d = 0; d < n.shape.dims.size(); ++d)
        if (n.shape.dims[d].isStatic() && n.shape.dims[d].value < 0)
            out.push_back(nodeError(n, "dim " + std::to_string(d) + " is negative ("
                                           + std::to_string(n.shape.dims[d].value) + ")"));
    if (n.shape.overflows())
        out.push_back(nodeError(n, "shape " + n.shape.toString() + " has more bytes than 64 bits can count"));
}
} // namespace

Diagnostics validateGraph(const Graph& g)
{
    Diagnostics out;
    std::unordered_set<NodeId> seen;
    for (const Node& n : g.nodes)
        if (!seen.insert(n.id).second)
            out.push_back(nodeError(n, "duplicate node id " + std::to_string(n.id)));
    for (const Node& n : g.nodes)
        checkNode(g, n, out);
    for (NodeId o : g.outputs)
        if (!g.find(o))
            out.push_back(Diagnostic::error("output " + std::to_string(o) + " does not exist"));
    if (out.empty()) {
        auto order = g.topologicalOrder();
        if (!order)
            out.push_back(order.error());
    }
    return out;
}

} // namespace costscope
