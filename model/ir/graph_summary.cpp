// SPDX-License-Identifier: MIT
#include "ir/graph_summary.h"

namespace costscope {

GraphSummary summarize(const Graph& g)
{
    GraphSummary s;
    s.name = g.name;
    s.nodeCount = g.nodes.size();
    s.symbols = g.symbols();
    for (const Node& n : g.nodes) {
        ++s.opHistogram[n.op.label()];
        if (n.op.kind == OpKind::Input)
            s.inputs.push_back({n.id, n.displayName(), n.shape});
        if (n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant) {
            ++s.paramCount;
            s.paramBytes += n.shape.bytes().value_or(0);
        }
        if (n.op.kind == OpKind::Unknown)
            ++s.unknownOps;
    }
    for (NodeId o : g.outputs)
        if (const Node* n = g.find(o))
            s.outputs.push_back({n->id, n->displayName(), n->shape});
    return s;
}

} // namespace costscope
