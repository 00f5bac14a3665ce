// SPDX-License-Identifier: MIT
#include "calibration/micro_graphs.h"

#include <string>

namespace costscope {

namespace {
NodeId addNode(Graph& g, OpKind kind, Attrs attrs, std::vector<NodeId> inputs, Shape shape)
{
    Node n;
    n.id = g.nextId();
    n.op = Op::make(kind, std::move(attrs));
    n.inputs = std::move(inputs);
    n.shape = std::move(shape);
    return g.add(std::move(n)).id;
}

NodeId input(Graph& g, const char* name, std::vector<std::int64_t> dims)
{
    Attrs a;
    a.set("name", std::string(name));
    return addNode(g, OpKind::Input, a, {}, Shape::of(std::move(dims)));
}

Graph named(std::string name)
{
    Graph g;
    g.name = std::move(name);
    return g;
}
} // namespace

Graph matmulGraph(std::int64_t m, std::int64_t k, std::int64_t n)
{
    Graph g = named("calibrate-matmul");
    const NodeId a = input(g, "a", {m, k});
    const NodeId b = input(g, "b", {k, n});
    g.outputs.push_back(addNode(g, OpKind::MatMul, {}, {a, b}, Shape::of({m, n})));
    return g;
}

Graph reduceGraph(std::int64_t elements)
{
    Graph g = named("calibrate-read");
    const NodeId x = input(g, "x", {elements});
    Attrs a;
    a.set("op", std::string("Sum"));
    a.set("axes", std::vector<std::int64_t>{0});
    a.set("keep_dim", false);
    g.outputs.push_back(addNode(g, OpKind::Reduce, a, {x}, Shape::of({})));
    return g;
}

Graph fillGraph(std::int64_t elements)
{
    Graph g = named("calibrate-write");
    const NodeId x = input(g, "x", {1});
    Attrs a;
    a.set("target_shape", std::vector<std::int64_t>{elements});
    g.outputs.push_back(addNode(g, OpKind::Expand, a, {x}, Shape::of({elements})));
    return g;
}

Graph chainGraph(std::int64_t elements, int length)
{
    Graph g = named("calibrate-chain");
    NodeId last = input(g, "x", {elements});
    Attrs a;
    a.set("op", std::string("Relu"));
    for (int i = 0; i < length; ++i)
        last = addNode(g, OpKind::Activation, a, {last}, Shape::of({elements}));
    g.outputs.push_back(last);
    return g;
}

Graph warmupGraph(std::int64_t elements, int length)
{
    Graph g = named("calibrate-warmup");
    NodeId last = kWarmupFirstId;
    Node x;
    x.id = last;
    Attrs name;
    name.set("name", std::string("warmup"));
    x.op = Op::make(OpKind::Input, name);
    x.shape = Shape::of({elements});
    g.add(std::move(x));
    Attrs relu;
    relu.set("op", std::string("Relu"));
    for (int i = 0; i < length; ++i) {
        Node n;
        n.id = ++last;
        n.op = Op::make(OpKind::Activation, relu);
        n.inputs = {last - 1};
        n.shape = Shape::of({elements});
        g.add(std::move(n));
    }
    g.outputs.push_back(last);
    return g;
}

} // namespace costscope
