// SPDX-License-Identifier: MIT
#include "ir/rebatch.h"

#include "ir/shape_inference.h"

#include <cstring>
#include <set>

namespace costscope {

namespace {
Diagnostic nodeError(const Node& n, const std::string& what)
{
    return Diagnostic::atNode(Diagnostic::Severity::Error, n.id, n.displayName(), "cannot rebatch: " + what);
}

std::optional<std::int64_t> oldBatchOf(const Graph& g, Diagnostic* error)
{
    std::optional<std::int64_t> batch;
    for (const Node& n : g.nodes) {
        if (n.op.kind != OpKind::Input)
            continue;
        if (n.shape.rank() == 0 || !n.shape.dims[0].isStatic()) {
            *error = nodeError(n, "input " + n.shape.toString() + " has no static batch dim");
            return std::nullopt;
        }
        if (batch && *batch != n.shape.dims[0].value) {
            *error = nodeError(n, "inputs disagree on the batch (" + std::to_string(*batch) + " and "
                                      + std::to_string(n.shape.dims[0].value) + ")");
            return std::nullopt;
        }
        batch = n.shape.dims[0].value;
    }
    if (!batch)
        *error = Diagnostic::error("cannot rebatch: the graph has no Input");
    return batch;
}

// Scales entry 0 of a shape list by newBatch/oldBatch when it carries the batch.
bool scaleEntry0(std::vector<std::int64_t>& v, std::int64_t oldBatch, std::int64_t newBatch)
{
    if (v.empty() || v[0] <= 0 || v[0] % oldBatch != 0)
        return false;
    v[0] = v[0] / oldBatch * newBatch;
    return true;
}

// Reshape/Expand: rewrites the target shape in the attribute, or in the Constant input that supplies it.
void fixTargetShape(Graph& out, Node& n, std::int64_t oldBatch, std::int64_t newBatch, std::set<NodeId>& rewritten)
{
    const char* key = n.op.kind == OpKind::Reshape ? "new_shape" : "target_shape";
    if (n.op.attrs.has(key)) {
        auto v = n.op.attrs.intsOr(key, {});
        if (scaleEntry0(v, oldBatch, newBatch))
            n.op.attrs.set(key, v);
        return;
    }
    Node* c = n.inputs.size() > 1 ? out.find(n.inputs[1]) : nullptr;
    if (!c || !c->data || c->shape.dtype != DType::I64 || rewritten.count(c->id))
        return;
    std::vector<std::int64_t> v(c->data->size() / sizeof(std::int64_t));
    std::memcpy(v.data(), c->data->data(), v.size() * sizeof(std::int64_t));
    if (!scaleEntry0(v, oldBatch, newBatch))
        return;
    std::vector<std::uint8_t> bytes(v.size() * sizeof(std::int64_t));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    c->data = makeTensorData(std::move(bytes));
    rewritten.insert(c->id);
}
} // namespace

Result<Graph> rebatch(const Graph& g, std::int64_t batch)
{
    if (batch <= 0)
        return Diagnostic::error("cannot rebatch: batch must be positive, got " + std::to_string(batch));
    Diagnostic error = Diagnostic::error("");
    const auto oldBatch = oldBatchOf(g, &error);
    if (!oldBatch)
        return error;
    auto order = g.topologicalOrder();
    if (!order)
        return order.error();
    Graph out = g;
    out.invalidate();
    std::set<NodeId> rewritten;
    for (std::size_t pos : *order) {
        Node& n = out.nodes[pos];
        const OpKind k = n.op.kind;
        if (k == OpKind::Input) {
            n.shape.dims[0] = Dim::fixed(batch);
            continue;
        }
        if (k == OpKind::Param || k == OpKind::Constant)
            continue;
        std::vector<Shape> shapes;
        std::vector<const Node*> nodes;
        bool changed = false;
        for (NodeId id : n.inputs) {
            const Node* in = out.find(id);
            const Node* before = g.find(id);
            if (!in || !before)
                return nodeError(n, "input " + std::to_string(id) + " names no node");
            changed = changed || !(in->shape == before->shape);
            shapes.push_back(in->shape);
            nodes.push_back(in);
        }
        if (!changed)
            continue;
        if (k == OpKind::Reshape || k == OpKind::Expand) {
            fixTargetShape(out, n, *oldBatch, batch, rewritten);
            nodes.clear();
            for (NodeId id : n.inputs)
                nodes.push_back(out.find(id));
        }
        auto s = inferShape(n.op, shapes, nodes);
        if (!s)
            return nodeError(n, n.op.label() + ": " + s.error().message);
        // The batch flows into this node but its dim 0 did not follow: a Param or Constant broadcast against it
        // still carries the old batch, and the graph would silently keep computing at that size.
        const Shape& before = g.nodes[pos].shape;
        if (batch != *oldBatch && before.rank() > 0 && s->rank() > 0 && before.dims[0] == Dim::fixed(*oldBatch)
            && s->dims[0] == Dim::fixed(*oldBatch))
            return nodeError(n, n.op.label() + " keeps batch " + std::to_string(*oldBatch) + " (" + s->toString()
                                    + "): an operand that is not an Input carries the batch");
        n.shape = std::move(*s);
    }
    return out;
}

} // namespace costscope
