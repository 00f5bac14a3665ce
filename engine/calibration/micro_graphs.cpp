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

Graph chainGraph(std::int64_t elements, int length, const char* activation)
{
    Graph g = named("calibrate-chain");
    NodeId last = input(g, "x", {elements});
    Attrs a;
    a.set("op", std::string(activation));
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

Graph addGraph(std::int64_t elements, OpKind kind, const char* binaryOp)
{
    Graph g = named("calibrate-add");
    const NodeId a = input(g, "a", {elements});
    const NodeId b = input(g, "b", {elements});
    Attrs op;
    if (kind == OpKind::Binary)
        op.set("op", std::string(binaryOp));
    g.outputs.push_back(addNode(g, kind, op, {a, b}, Shape::of({elements})));
    return g;
}

Graph addChainGraph(std::int64_t elements, int length)
{
    Graph g = named("calibrate-add-chain");
    NodeId last = input(g, "x", {elements});
    const NodeId scalar = input(g, "s", {1});
    Attrs a;
    a.set("op", std::string("Add"));
    for (int i = 0; i < length; ++i)
        last = addNode(g, OpKind::Binary, a, {last, scalar}, Shape::of({elements}));
    g.outputs.push_back(last);
    return g;
}

Graph reshapeGraph(std::int64_t elements)
{
    Graph g = named("calibrate-view");
    const NodeId x = input(g, "x", {elements});
    Attrs a;
    a.set("new_shape", std::vector<std::int64_t>{elements / 64, 64});
    g.outputs.push_back(addNode(g, OpKind::Reshape, a, {x}, Shape::of({elements / 64, 64})));
    return g;
}

Graph poolGraph(std::int64_t channels, std::int64_t size, const char* kind)
{
    Graph g = named("calibrate-pool");
    const NodeId x = input(g, "x", {1, channels, size, size});
    Attrs a;
    a.set("kind", std::string(kind));
    a.set("kernel_size", std::vector<std::int64_t>{3, 3});
    a.set("stride", std::vector<std::int64_t>{1, 1});
    a.set("padding", std::vector<std::int64_t>{1, 1});
    g.outputs.push_back(addNode(g, OpKind::Pool, a, {x}, Shape::of({1, channels, size, size})));
    return g;
}

Graph lrnGraph(std::int64_t channels, std::int64_t size)
{
    Graph g = named("calibrate-lrn");
    const NodeId x = input(g, "x", {1, channels, size, size});
    Attrs a;
    a.set("size", std::int64_t{5});
    g.outputs.push_back(addNode(g, OpKind::Lrn, a, {x}, Shape::of({1, channels, size, size})));
    return g;
}

Graph globalPoolGraph(std::int64_t channels, std::int64_t size)
{
    Graph g = named("calibrate-global-pool");
    const NodeId x = input(g, "x", {1, channels, size, size});
    Attrs a;
    a.set("kind", std::string("Avg"));
    g.outputs.push_back(addNode(g, OpKind::GlobalPool, a, {x}, Shape::of({1, channels, 1, 1})));
    return g;
}

Graph rowOpGraph(OpKind kind, std::int64_t rows, std::int64_t cols)
{
    Graph g = named("calibrate-rows");
    const NodeId x = input(g, "x", {rows, cols});
    Attrs a;
    a.set("axis", std::int64_t{-1});
    g.outputs.push_back(addNode(g, kind, a, {x}, Shape::of({rows, cols})));
    return g;
}

Graph convGraph(const ConvLayer& l)
{
    Graph g = named("calibrate-conv");
    const std::int64_t out = (l.size + 2 * l.pad - l.kernel) / l.stride + 1;
    const NodeId x = input(g, "x", {l.batch, l.inChannels, l.size, l.size});
    const NodeId w = addNode(g, OpKind::Param, {}, {}, Shape::of({l.outChannels, l.inChannels, l.kernel, l.kernel}));
    Attrs a;
    a.set("kernel_size", std::vector<std::int64_t>{l.kernel, l.kernel});
    a.set("stride", std::vector<std::int64_t>{l.stride, l.stride});
    a.set("padding", std::vector<std::int64_t>{l.pad, l.pad});
    g.outputs.push_back(addNode(g, OpKind::Conv, a, {x, w}, Shape::of({l.batch, l.outChannels, out, out})));
    return g;
}

} // namespace costscope
