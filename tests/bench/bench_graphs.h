// SPDX-License-Identifier: MIT
#pragma once
// Generated graphs for the layout and canvas benchmarks.
#include "ir/graph.h"
#include "layout/layered_layout.h"
#include <random>
#include <string>

namespace costscope::bench {

// A transformer-like stack: `blocks` blocks, each a chain of MatMuls with a weight Param and a skip edge, so
// that scopes ("l3.b1") give the canvas real groups. Node count ≈ blocks × perBlock × 2.
inline Graph transformerLike(int blocks, int perBlock)
{
    Graph g;
    g.name = "generated";
    NodeId next = 0;
    auto add = [&](OpKind kind, std::vector<NodeId> inputs, std::optional<std::string> param) {
        Node n;
        n.id = next++;
        n.op = Op::make(kind);
        if (param)
            n.op.attrs.set("name", *param);
        n.inputs = std::move(inputs);
        n.shape = Shape::of({64, 64});
        return g.add(std::move(n)).id;
    };
    NodeId h = add(OpKind::Input, {}, std::string("x"));
    for (int b = 0; b < blocks; ++b) {
        const NodeId blockIn = h;
        for (int k = 0; k < perBlock; ++k) {
            const std::string scope = "l" + std::to_string(b / 10) + ".b" + std::to_string(b % 10);
            const NodeId w = add(OpKind::Param, {}, scope + ".w" + std::to_string(k));
            g.nodes.back().scope = "l" + std::to_string(b / 10) + "/b" + std::to_string(b % 10);
            h = add(OpKind::MatMul, {h, w}, std::nullopt);
        }
        h = add(OpKind::Binary, {h, blockIn}, std::nullopt);
        g.nodes.back().op.attrs.set("op", std::string("Add"));
    }
    g.outputs = {h};
    return g;
}

// The same DAG as a Graph without scopes: nothing to group, every node is drawn.
inline Graph ungrouped(const layout::LayoutInput& dag)
{
    Graph g;
    g.name = "ungrouped";
    for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
        Node n;
        n.id = static_cast<NodeId>(i);
        n.op = Op::make(i == 0 ? OpKind::Input : OpKind::Sum); // Sum takes the one or two inputs a node has
        if (i == 0)
            n.op.attrs.set("name", std::string("x"));
        n.shape = Shape::of({64, 64});
        g.add(std::move(n));
    }
    for (const auto& e : dag.edges)
        g.nodes[static_cast<std::size_t>(e.to)].inputs.push_back(e.from);
    g.outputs = {static_cast<NodeId>(dag.nodes.size() - 1)};
    return g;
}

// A random layered-ish DAG with a spine and skip edges, as LayoutInput.
inline layout::LayoutInput randomDag(int nodes, unsigned seed)
{
    std::mt19937 rng(seed);
    layout::LayoutInput in;
    for (int i = 0; i < nodes; ++i)
        in.nodes.push_back({110, 44, std::to_string(i)});
    for (int i = 1; i < nodes; ++i) {
        in.edges.push_back({i - 1, i});
        if (i > 8 && rng() % 3 == 0)
            in.edges.push_back({i - 2 - static_cast<int>(rng() % 6), i});
    }
    return in;
}

} // namespace costscope::bench
