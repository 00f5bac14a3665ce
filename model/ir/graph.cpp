// SPDX-License-Identifier: MIT
#include "ir/graph.h"

#include <algorithm>

namespace costscope {

std::string Node::displayName() const
{
    if (op.kind == OpKind::Input || op.kind == OpKind::Param)
        if (auto n = op.attrs.getString("name"))
            return *n;
    return name.value_or(std::string{});
}

bool TensorBytes::operator==(const TensorBytes& o) const
{
    return size() == o.size() && std::equal(begin(), end(), o.begin());
}

bool Node::operator==(const Node& o) const
{
    auto sameData = [](const TensorData& a, const TensorData& b) {
        if (!a || !b)
            return !a && !b;
        return *a == *b;
    };
    auto sameSubgraphs = [](const std::vector<Subgraph>& a, const std::vector<Subgraph>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Subgraph& x, const Subgraph& y) {
            return x.attribute == y.attribute && x.outerInputs == y.outerInputs
                   && (x.graph == y.graph || (x.graph && y.graph && *x.graph == *y.graph));
        });
    };
    return id == o.id && op == o.op && inputs == o.inputs && shape == o.shape && name == o.name && scope == o.scope
           && sameData(data, o.data) && extras == o.extras && sameSubgraphs(subgraphs, o.subgraphs);
}

void Graph::buildIndex() const
{
    m_index.positions.clear();
    m_index.positions.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        m_index.positions.emplace(nodes[i].id, i); // first occurrence wins; duplicates are a validation error
}

void Graph::invalidate()
{
    const std::lock_guard lock(m_index.mutex);
    m_index.positions.clear();
}

std::optional<std::size_t> Graph::indexOf(NodeId id) const
{
    const std::lock_guard lock(m_index.mutex);
    if (m_index.positions.size() != nodes.size())
        buildIndex();
    auto it = m_index.positions.find(id);
    if (it == m_index.positions.end() || it->second >= nodes.size() || nodes[it->second].id != id) {
        buildIndex();
        it = m_index.positions.find(id);
        if (it == m_index.positions.end())
            return std::nullopt;
    }
    return it->second;
}

const Node* Graph::find(NodeId id) const
{
    auto i = indexOf(id);
    return i ? &nodes[*i] : nullptr;
}

Node* Graph::find(NodeId id)
{
    auto i = indexOf(id);
    return i ? &nodes[*i] : nullptr;
}

NodeId Graph::nextId() const
{
    NodeId next = 0;
    for (const Node& n : nodes)
        next = std::max(next, n.id + 1);
    return next;
}

Node& Graph::add(Node n)
{
    nodes.push_back(std::move(n));
    invalidate();
    return nodes.back();
}

Result<std::vector<std::size_t>> Graph::topologicalOrder() const
{
    // Kahn's algorithm over positions; inputs that name no node are ignored here (validation reports them).
    const std::size_t n = nodes.size();
    std::vector<std::size_t> indegree(n, 0);
    auto users = consumers();
    for (std::size_t i = 0; i < n; ++i)
        for (NodeId in : nodes[i].inputs)
            if (indexOf(in))
                ++indegree[i];
    std::vector<std::size_t> order;
    order.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (indegree[i] == 0)
            order.push_back(i);
    for (std::size_t head = 0; head < order.size(); ++head)
        for (std::size_t u : users[order[head]])
            if (--indegree[u] == 0)
                order.push_back(u);
    if (order.size() != n) {
        for (std::size_t i = 0; i < n; ++i)
            if (indegree[i] > 0)
                return Diagnostic::atNode(Diagnostic::Severity::Error, nodes[i].id, nodes[i].displayName(),
                                          "is part of a cycle");
    }
    return order;
}

bool Graph::isOutput(NodeId id) const
{
    return std::find(outputs.begin(), outputs.end(), id) != outputs.end();
}

std::vector<std::vector<std::size_t>> Graph::consumers() const
{
    std::vector<std::vector<std::size_t>> users(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (NodeId in : nodes[i].inputs)
            if (auto j = indexOf(in))
                users[*j].push_back(i);
    return users;
}

std::vector<std::string> Graph::symbols() const
{
    std::vector<std::string> out;
    for (const Node& n : nodes)
        for (const auto& s : n.shape.symbols())
            if (std::find(out.begin(), out.end(), s) == out.end())
                out.push_back(s);
    std::sort(out.begin(), out.end());
    return out;
}

bool Graph::operator==(const Graph& o) const
{
    return name == o.name && nodes == o.nodes && outputs == o.outputs && extras == o.extras;
}

} // namespace costscope
