// SPDX-License-Identifier: MIT
#include "narrow_float_casts.h"

#include "widen_to_f32.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

namespace costscope {

namespace {
bool isLeaf(const Node& n)
{
    return n.op.kind == OpKind::Input || n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant;
}

Node castNode(NodeId id, const Node& from, DType to)
{
    Node c;
    c.id = id;
    c.op = Op::make(OpKind::Cast);
    c.op.attrs.set("to", std::string(dtypeName(to)));
    c.inputs = {from.id};
    c.shape = from.shape;
    c.shape.dtype = to;
    const std::string base = from.displayName().empty() ? std::to_string(from.id) : from.displayName();
    std::string suffix(dtypeName(to));
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    c.name = base + ":" + suffix;
    c.scope = from.scope;
    return c;
}
} // namespace

bool touchesNarrowFloat(const Graph& g, const Node& n)
{
    if (isNarrowFloat(n.shape.dtype) || retargetsNarrowFloat(n))
        return true;
    return std::any_of(n.inputs.begin(), n.inputs.end(), [&](NodeId id) {
        const Node* in = g.find(id);
        return in && isNarrowFloat(in->shape.dtype);
    });
}

Graph withNarrowFloatCasts(const Graph& g, const RunsNarrowNatively& native)
{
    const std::size_t count = g.nodes.size();
    const auto consumers = g.consumers();
    // wide[p]: node p's value is F32 in the result although p is narrow in g (or p runs in F32 as an op).
    std::vector<bool> wide(count, false);
    for (std::size_t p = 0; p < count; ++p) {
        const Node& n = g.nodes[p];
        wide[p] = !isLeaf(n) && touchesNarrowFloat(g, n) && !native(g, n);
    }
    for (std::size_t p = 0; p < count; ++p) {
        const Node& n = g.nodes[p];
        const bool stored = (n.op.kind == OpKind::Param || n.op.kind == OpKind::Constant) && n.data;
        if (stored && isNarrowFloat(n.shape.dtype) && !g.isOutput(n.id) && !consumers[p].empty()
            && std::all_of(consumers[p].begin(), consumers[p].end(), [&](std::size_t c) { return wide[c]; }))
            wide[p] = true; // widened once here: a Cast would convert the same bytes on every run
    }

    Graph out;
    out.name = g.name;
    out.extras = g.extras;
    NodeId next = g.nextId();
    std::map<NodeId, NodeId> widened, narrowed; // producer -> its Cast to F32 / back to its own dtype
    auto castOf = [&](const Node& from, DType to, std::map<NodeId, NodeId>& made) {
        if (auto it = made.find(from.id); it != made.end())
            return it->second;
        out.nodes.push_back(castNode(next, from, to));
        made[from.id] = next;
        return next++;
    };
    for (std::size_t p = 0; p < count; ++p) {
        Node n = g.nodes[p];
        for (NodeId& id : n.inputs) {
            const std::size_t q = *g.indexOf(id);
            const Node& src = g.nodes[q];
            if (!isNarrowFloat(src.shape.dtype) || wide[p] == wide[q])
                continue;
            id = wide[p] ? castOf(src, DType::F32, widened) : castOf(src, src.shape.dtype, narrowed);
        }
        if (wide[p])
            widenNodeToF32(n);
        out.nodes.push_back(std::move(n));
    }
    for (NodeId id : g.outputs) {
        const std::size_t p = *g.indexOf(id);
        const Node& n = g.nodes[p];
        out.outputs.push_back(wide[p] && isNarrowFloat(n.shape.dtype) ? castOf(n, n.shape.dtype, narrowed) : id);
    }
    out.invalidate();
    return out;
}

} // namespace costscope
