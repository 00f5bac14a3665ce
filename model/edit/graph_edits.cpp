// SPDX-License-Identifier: MIT
#include "edit/graph_edits.h"

#include "edit/edit_parse.h"
#include "ir/shape_inference.h"
#include "ir/validate.h"

#include <algorithm>
#include <set>

namespace costscope::edit {
namespace {

// Marks a fragment's Input that stands for a tensor produced outside it (copyFragment).
constexpr std::string_view kExternalKey = "costscope_external";

bool isExternalInput(const Node& n)
{
    return std::any_of(n.extras.begin(), n.extras.end(), [](const auto& e) { return e.first == kExternalKey; });
}

bool isLeaf(const Node& n) { return n.op.info().opClass == OpClass::Leaf; }

std::string who(const Node& n)
{
    const std::string name = n.displayName();
    return "node " + std::to_string(n.id) + (name.empty() ? "" : " (" + name + ")");
}

Diagnostic nodeError(const Node& n, const std::string& msg)
{
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, n.displayName(), msg);
}

Diagnostic noSuchNode(NodeId id) { return Diagnostic::error("there is no node " + std::to_string(id)); }

// True when `target` can be reached from `start` by following inputs (start's inputs, their inputs, ...).
bool dependsOn(const Graph& g, NodeId start, NodeId target)
{
    std::vector<NodeId> stack{start};
    std::set<NodeId> seen;
    while (!stack.empty()) {
        const NodeId id = stack.back();
        stack.pop_back();
        if (id == target)
            return true;
        if (!seen.insert(id).second)
            continue;
        if (const Node* n = g.find(id))
            stack.insert(stack.end(), n->inputs.begin(), n->inputs.end());
    }
    return false;
}

// Input shapes and nodes of n, or false when an input names no node.
bool gatherInputs(const Graph& g, const Node& n, std::vector<Shape>& shapes, std::vector<const Node*>& nodes)
{
    shapes.clear();
    nodes.clear();
    for (NodeId in : n.inputs) {
        const Node* src = g.find(in);
        if (!src)
            return false;
        shapes.push_back(src->shape);
        nodes.push_back(src);
    }
    return true;
}

} // namespace

Op defaultOp(OpKind kind)
{
    Attrs a;
    switch (kind) {
    case OpKind::Input: a.set("name", std::string("input")); break;
    case OpKind::Param: a.set("name", std::string("weight")); break;
    case OpKind::FusedMatMulBiasAct: a.set("activation", std::string("Gelu")); break;
    case OpKind::Attention:
        a.set("num_heads", std::int64_t{4});
        a.set("head_dim", std::int64_t{16});
        a.set("mask_kind", std::string("None"));
        a.set("score_scale", AttrValue{});
        a.set("attn_logit_softcap", AttrValue{});
        break;
    case OpKind::Fft:
        a.set("inverse", false);
        a.set("norm", std::string("Backward"));
        break;
    case OpKind::WelchPeaks:
        a.set("k", std::int64_t{16});
        a.set("n_segments", std::int64_t{2});
        break;
    case OpKind::Custom:
        a.set("name", std::string("custom"));
        a.set("num_inputs", std::int64_t{1});
        break;
    case OpKind::Binary: a.set("op", std::string("Add")); break;
    case OpKind::Activation: a.set("op", std::string("Relu")); break;
    case OpKind::Compare: a.set("op", std::string("Lt")); break;
    case OpKind::Cast: a.set("to", std::string("F32")); break;
    case OpKind::Reshape: a.set("new_shape", std::vector<std::int64_t>{1, -1}); break;
    case OpKind::Transpose: a.set("perm", std::vector<std::int64_t>{1, 0}); break;
    case OpKind::Narrow:
        a.set("axis", std::int64_t{0});
        a.set("start", std::int64_t{0});
        a.set("len", std::int64_t{1});
        break;
    case OpKind::Concat:
    case OpKind::Gather:
        a.set("axis", std::int64_t{0});
        break;
    case OpKind::Reduce:
        a.set("op", std::string("Sum"));
        a.set("axes", std::vector<std::int64_t>{-1});
        a.set("keep_dim", false);
        break;
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
        a.set("axis", std::int64_t{-1});
        break;
    case OpKind::LayerNorm:
        a.set("axis", std::int64_t{-1});
        a.set("eps", 1e-5);
        break;
    case OpKind::RmsNorm:
        a.set("axis", std::int64_t{-1});
        a.set("eps", 1e-6);
        break;
    case OpKind::Conv:
        a.set("kernel_size", std::vector<std::int64_t>{3, 3});
        a.set("stride", std::vector<std::int64_t>{1, 1});
        a.set("padding", std::vector<std::int64_t>{1, 1});
        a.set("dilation", std::vector<std::int64_t>{1, 1});
        a.set("groups", std::int64_t{1});
        break;
    case OpKind::Pool:
        a.set("kind", std::string("Max"));
        a.set("kernel_size", std::vector<std::int64_t>{2, 2});
        a.set("stride", std::vector<std::int64_t>{2, 2});
        a.set("padding", std::vector<std::int64_t>{0, 0});
        break;
    default: break;
    }
    return Op::make(kind, std::move(a));
}

void refreshShapes(Graph& g, const std::vector<NodeId>& changed)
{
    auto order = g.topologicalOrder();
    if (!order)
        return; // a cycle: graphProblems() names it, and no order exists to infer in
    std::vector<bool> dirty(g.nodes.size(), false);
    for (NodeId id : changed)
        if (auto i = g.indexOf(id))
            dirty[*i] = true;
    const auto consumers = g.consumers();
    std::vector<Shape> shapes;
    std::vector<const Node*> inputs;
    for (std::size_t i : *order) {
        if (!dirty[i])
            continue;
        Node& n = g.nodes[i];
        bool propagate = isLeaf(n);
        if (!propagate && gatherInputs(g, n, shapes, inputs)) {
            auto inferred = inferShape(n.op, shapes, inputs);
            if (inferred && !(*inferred == n.shape)) {
                n.shape = *inferred;
                propagate = true;
            }
        }
        if (propagate)
            for (std::size_t c : consumers[i])
                dirty[c] = true;
    }
}

std::vector<NodeProblem> graphProblems(const Graph& g)
{
    std::vector<NodeProblem> out;
    std::set<NodeId> structural;
    for (const Diagnostic& d : validateGraph(g))
        if (d.isError() && d.node) {
            out.push_back({*d.node, d.message});
            structural.insert(*d.node);
        }
    std::vector<Shape> shapes;
    std::vector<const Node*> inputs;
    for (const Node& n : g.nodes) {
        if (isLeaf(n) || structural.count(n.id) || !gatherInputs(g, n, shapes, inputs))
            continue;
        auto inferred = inferShape(n.op, shapes, inputs);
        if (!inferred && inferred.error().isError())
            out.push_back({n.id, inferred.error().message});
    }
    return out;
}

Result<Graph> addNode(const Graph& g, Node node, NodeId* newId)
{
    for (NodeId in : node.inputs)
        if (!g.find(in))
            return noSuchNode(in);
    Graph out = g;
    node.id = out.nextId();
    const NodeId id = node.id;
    out.add(std::move(node));
    out.invalidate();
    refreshShapes(out, {id});
    if (newId)
        *newId = id;
    return out;
}

Result<Graph> removeNodes(const Graph& g, const std::vector<NodeId>& ids)
{
    const std::set<NodeId> gone(ids.begin(), ids.end());
    for (NodeId id : gone)
        if (!g.find(id))
            return noSuchNode(id);
    Graph out;
    out.name = g.name;
    out.extras = g.extras;
    std::vector<NodeId> touched;
    for (const Node& n : g.nodes) {
        if (gone.count(n.id))
            continue;
        Node copy = n;
        const auto before = copy.inputs.size();
        std::erase_if(copy.inputs, [&](NodeId in) { return gone.count(in) > 0; });
        if (copy.inputs.size() != before)
            touched.push_back(copy.id);
        out.nodes.push_back(std::move(copy));
    }
    for (NodeId o : g.outputs)
        if (!gone.count(o))
            out.outputs.push_back(o);
    refreshShapes(out, touched);
    return out;
}

Result<Graph> connect(const Graph& g, NodeId from, NodeId to, std::size_t slot)
{
    const Node* src = g.find(from);
    const Node* dst = g.find(to);
    if (!src)
        return noSuchNode(from);
    if (!dst)
        return noSuchNode(to);
    if (isLeaf(*dst))
        return nodeError(*dst, dst->op.name + " takes no inputs");
    if (slot > dst->inputs.size())
        return nodeError(*dst, "has " + std::to_string(dst->inputs.size()) + " input(s); cannot connect input " +
                                   std::to_string(slot));
    const int maxInputs = dst->op.info().maxInputs;
    if (slot == dst->inputs.size() && maxInputs >= 0 && static_cast<int>(dst->inputs.size()) >= maxInputs)
        return nodeError(*dst, dst->op.label() + " takes at most " + std::to_string(maxInputs) + " input(s)");
    if (from == to || dependsOn(g, from, to))
        return nodeError(*dst, "connecting " + who(*src) + " to it would make a cycle");
    Graph out = g;
    Node* n = out.find(to);
    if (slot == n->inputs.size())
        n->inputs.push_back(from);
    else
        n->inputs[slot] = from;
    refreshShapes(out, {to});
    return out;
}

Result<Graph> disconnect(const Graph& g, NodeId to, std::size_t slot)
{
    const Node* dst = g.find(to);
    if (!dst)
        return noSuchNode(to);
    if (slot >= dst->inputs.size())
        return nodeError(*dst, "has no input " + std::to_string(slot));
    Graph out = g;
    Node* n = out.find(to);
    n->inputs.erase(n->inputs.begin() + static_cast<std::ptrdiff_t>(slot));
    refreshShapes(out, {to});
    return out;
}

Result<Graph> removeEdges(const Graph& g, const std::vector<std::pair<NodeId, NodeId>>& edges)
{
    Graph out = g;
    std::vector<NodeId> touched;
    for (const auto& [from, to] : edges) {
        Node* n = out.find(to);
        if (!n)
            return noSuchNode(to);
        if (std::erase(n->inputs, from) == 0)
            return nodeError(*n, "does not read node " + std::to_string(from));
        touched.push_back(to);
    }
    refreshShapes(out, touched);
    return out;
}

Result<Graph> rename(const Graph& g, NodeId id, const std::string& name)
{
    if (!g.find(id))
        return noSuchNode(id);
    Graph out = g;
    Node* n = out.find(id);
    if (n->op.kind == OpKind::Input || n->op.kind == OpKind::Param) {
        if (name.empty())
            return nodeError(*n, "an " + n->op.name + " needs a name");
        n->op.attrs.set("name", name);
    } else if (name.empty()) {
        n->name.reset();
    } else {
        n->name = name;
    }
    return out;
}

Result<Graph> setAttribute(const Graph& g, NodeId id, const std::string& key, const std::string& text)
{
    const Node* n = g.find(id);
    if (!n)
        return noSuchNode(id);
    if (key.empty())
        return nodeError(*n, "an attribute needs a name");
    const AttrValue* current = n->op.attrs.find(key);
    auto value = parseAttrValue(current ? *current : AttrValue{}, text);
    if (!value)
        return nodeError(*n, key + ": " + value.error().message);
    Graph out = g;
    out.find(id)->op.attrs.set(key, *value);
    refreshShapes(out, {id});
    return out;
}

Result<Graph> setLeafShape(const Graph& g, NodeId id, const std::string& text)
{
    const Node* n = g.find(id);
    if (!n)
        return noSuchNode(id);
    if (!isLeaf(*n))
        return nodeError(*n, "the shape of " + n->op.label() + " follows from its inputs; edit those instead");
    auto shape = parseShape(text);
    if (!shape)
        return nodeError(*n, shape.error().message);
    Graph out = g;
    out.find(id)->shape = *shape;
    refreshShapes(out, {id});
    return out;
}

Result<Graph> setOutput(const Graph& g, NodeId id, bool output)
{
    if (!g.find(id))
        return noSuchNode(id);
    Graph out = g;
    std::erase(out.outputs, id);
    if (output)
        out.outputs.push_back(id);
    return out;
}

Result<Graph> setScope(const Graph& g, const std::vector<NodeId>& ids, const std::string& scope)
{
    Graph out = g;
    for (NodeId id : ids) {
        Node* n = out.find(id);
        if (!n)
            return noSuchNode(id);
        n->scope = scope;
    }
    return out;
}

Graph copyFragment(const Graph& g, const std::vector<NodeId>& ids)
{
    const std::set<NodeId> keep(ids.begin(), ids.end());
    Graph frag;
    frag.name = g.name + " (fragment)";
    // Tensors entering the set become marked Inputs first, so the fragment is a valid graph on its own.
    std::set<NodeId> entering;
    for (const Node& n : g.nodes)
        if (keep.count(n.id))
            for (NodeId in : n.inputs)
                if (!keep.count(in) && entering.insert(in).second)
                    if (const Node* src = g.find(in)) {
                        Node placeholder;
                        placeholder.id = in;
                        placeholder.op = Op::make(OpKind::Input);
                        placeholder.op.attrs.set("name", src->displayName().empty() ? "in" + std::to_string(in)
                                                                                    : src->displayName());
                        placeholder.shape = src->shape;
                        placeholder.extras.emplace_back(std::string(kExternalKey), RawJson{"true"});
                        frag.nodes.push_back(std::move(placeholder));
                    }
    for (const Node& n : g.nodes)
        if (keep.count(n.id))
            frag.nodes.push_back(n);
    return frag;
}

Result<Graph> pasteFragment(const Graph& g, const Graph& fragment, std::vector<NodeId>* newIds)
{
    Graph out = g;
    NodeId next = out.nextId();
    std::map<NodeId, NodeId> remap;
    std::vector<NodeId> added;
    for (const Node& n : fragment.nodes) {
        // An entering tensor reconnects to the same producer when the graph has it (same id, same shape).
        if (isExternalInput(n))
            if (const Node* same = g.find(n.id); same && same->shape == n.shape) {
                remap[n.id] = n.id;
                continue;
            }
        remap[n.id] = next++;
    }
    for (const Node& n : fragment.nodes) {
        if (remap[n.id] == n.id && isExternalInput(n))
            continue;
        Node copy = n;
        copy.id = remap[n.id];
        std::erase_if(copy.extras, [](const auto& e) { return e.first == kExternalKey; });
        copy.inputs.clear();
        for (NodeId in : n.inputs)
            if (auto it = remap.find(in); it != remap.end())
                copy.inputs.push_back(it->second);
        added.push_back(copy.id);
        out.nodes.push_back(std::move(copy));
    }
    out.invalidate();
    if (auto order = out.topologicalOrder(); !order)
        return order.error();
    refreshShapes(out, added);
    if (newIds)
        *newIds = added;
    return out;
}

} // namespace costscope::edit
