// SPDX-License-Identifier: MIT
#pragma once
// A small graph builder for graphs made in code (the New-graph templates, the evaluation zoo): nodes get
// consecutive ids and each op's shape is inferred from its inputs.
#include "edit/graph_edits.h"
#include "ir/graph.h"
#include "ir/shape_inference.h"

#include <string>
#include <utility>
#include <vector>

namespace costscope::edit {

// Appends nodes with consecutive ids; an op's shape is inferred from its inputs.
class GraphBuilder {
public:
    explicit GraphBuilder(std::string name) { m_g.name = std::move(name); }

    NodeId leaf(OpKind kind, const std::string& name, Shape shape, const std::string& scope = {})
    {
        Node n;
        n.op = defaultOp(kind);
        n.op.attrs.set("name", name);
        n.shape = std::move(shape);
        n.scope = scope;
        return push(std::move(n));
    }
    // A Constant with its values (what a shape input of Reshape or ConstantOfShape reads).
    NodeId constant(const std::string& name, Shape shape, TensorData data)
    {
        Node n;
        n.op = defaultOp(OpKind::Constant);
        n.op.attrs.set("name", name);
        n.shape = std::move(shape);
        n.data = std::move(data);
        return push(std::move(n));
    }
    NodeId op(Op op, std::vector<NodeId> inputs, const std::string& scope = {})
    {
        Node n;
        n.op = std::move(op);
        n.inputs = std::move(inputs);
        n.scope = scope;
        std::vector<Shape> shapes;
        std::vector<const Node*> nodes;
        for (NodeId in : n.inputs) {
            shapes.push_back(m_g.find(in)->shape);
            nodes.push_back(m_g.find(in));
        }
        if (auto s = inferShape(n.op, shapes, nodes))
            n.shape = *s;
        return push(std::move(n));
    }
    NodeId op(OpKind kind, std::vector<NodeId> inputs, const std::string& scope = {})
    {
        return op(defaultOp(kind), std::move(inputs), scope);
    }
    NodeId sub(OpKind kind, const std::string& subOp, std::vector<NodeId> inputs, const std::string& scope = {})
    {
        Op o = defaultOp(kind);
        o.attrs.set("op", subOp);
        return op(std::move(o), std::move(inputs), scope);
    }
    const Graph& graph() const { return m_g; }
    Graph finish(std::vector<NodeId> outputs)
    {
        m_g.outputs = std::move(outputs);
        return std::move(m_g);
    }

private:
    NodeId push(Node n)
    {
        n.id = static_cast<NodeId>(m_g.nodes.size());
        m_g.add(std::move(n));
        m_g.invalidate();
        return m_g.nodes.back().id;
    }
    Graph m_g;
};

} // namespace costscope::edit
