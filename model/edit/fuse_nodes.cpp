// SPDX-License-Identifier: MIT
#include "edit/fuse_nodes.h"

#include "analysis/fuse_what_if.h"
#include "formats/rlx_json.h"
#include "ir/fused_op.h"

#include <nlohmann/json.hpp>

#include <set>

namespace costscope::edit {

Result<Graph> fuseNodes(const Graph& g, const std::vector<NodeId>& ids, NodeId* fusedId)
{
    auto whatIf = fuseWhatIf(g, ids);
    if (!whatIf)
        return whatIf.error();
    const std::set<NodeId> set(ids.begin(), ids.end());
    if (std::all_of(set.begin(), set.end(), [&](NodeId id) { return g.find(id)->op.info().opClass == OpClass::Leaf; }))
        return Diagnostic::error("the selection holds only inputs, parameters and constants: nothing to fuse");

    // Exits: members read outside the set or returned by the graph.
    std::vector<NodeId> exits;
    for (const Node& n : g.nodes) {
        if (!set.count(n.id))
            continue;
        bool leaves = g.isOutput(n.id);
        for (const Node& user : g.nodes)
            if (!set.count(user.id) && std::find(user.inputs.begin(), user.inputs.end(), n.id) != user.inputs.end())
                leaves = true;
        if (leaves)
            exits.push_back(n.id);
    }
    if (exits.size() > 1) {
        std::string list;
        for (NodeId e : exits)
            list += (list.empty() ? "" : ", ") + std::to_string(e);
        return Diagnostic::error("the selection has " + std::to_string(exits.size()) +
                                 " nodes whose output is used outside it (" + list +
                                 "); a fused node has one output: add their consumers or drop some of them");
    }
    const NodeId exit = exits.empty() ? whatIf->nodes.back() : exits.front();

    // Members in graph order, entering tensors as Inputs that keep their producers' ids and shapes.
    Graph members;
    members.name = "fused";
    std::vector<NodeId> entering;
    std::string label;
    for (const Node& n : g.nodes) {
        if (!set.count(n.id))
            continue;
        for (NodeId in : n.inputs)
            if (!set.count(in) && std::find(entering.begin(), entering.end(), in) == entering.end())
                entering.push_back(in);
        if (n.op.info().opClass != OpClass::Leaf)
            label += (label.empty() ? "" : "+") + n.op.label();
    }
    for (NodeId in : entering) {
        const Node* src = g.find(in);
        Node leaf;
        leaf.id = in;
        leaf.op = Op::make(OpKind::Input);
        leaf.op.attrs.set("name", src->displayName().empty() ? "in" + std::to_string(in) : src->displayName());
        leaf.shape = src->shape;
        members.nodes.push_back(std::move(leaf));
    }
    for (const Node& n : g.nodes)
        if (set.count(n.id))
            members.nodes.push_back(n);
    members.outputs = {exit};

    nlohmann::json payload;
    payload["members"] = nlohmann::json::parse(writeRlxJson(members));
    Node fused;
    fused.id = exit;
    fused.op = Op::unknown(std::string(kFusedOpName), payload.dump());
    fused.inputs = entering;
    fused.shape = g.find(exit)->shape;
    fused.name = "fused " + label;
    fused.scope = g.find(exit)->scope;

    Graph out;
    out.name = g.name;
    out.extras = g.extras;
    out.outputs = g.outputs;
    for (const Node& n : g.nodes) {
        if (n.id == exit)
            out.nodes.push_back(fused);
        else if (!set.count(n.id))
            out.nodes.push_back(n);
    }
    if (fusedId)
        *fusedId = exit;
    return out;
}

} // namespace costscope::edit
