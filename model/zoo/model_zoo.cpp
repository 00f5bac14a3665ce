// SPDX-License-Identifier: MIT
#include "zoo/model_zoo.h"

#include "edit/graph_builder.h"

#include <algorithm>

namespace costscope {

namespace {

using edit::GraphBuilder;
using Dims = std::vector<std::int64_t>;

NodeId param(GraphBuilder& b, const std::string& name, Dims dims)
{
    return b.leaf(OpKind::Param, name, Shape::of(std::move(dims)));
}

NodeId binary(GraphBuilder& b, const char* op, NodeId x, NodeId y)
{
    return b.sub(OpKind::Binary, op, {x, y});
}

NodeId act(GraphBuilder& b, const char* op, NodeId x)
{
    return b.sub(OpKind::Activation, op, {x});
}

// x·W + b as an ONNX exporter writes it (MatMul, then Add), then the activation (none when null).
NodeId dense(GraphBuilder& b, NodeId x, std::int64_t in, std::int64_t out, const std::string& name,
             const char* activation)
{
    const NodeId y =
        binary(b, "Add", b.op(OpKind::MatMul, {x, param(b, name + ".w", {in, out})}), param(b, name + ".b", {out}));
    return activation ? act(b, activation, y) : y;
}

// The same as RLX writes it: one FusedMatMulBiasAct.
NodeId fusedDense(GraphBuilder& b, NodeId x, std::int64_t in, std::int64_t out, const std::string& name,
                  const char* activation)
{
    Op op = edit::defaultOp(OpKind::FusedMatMulBiasAct);
    if (activation)
        op.attrs.set("activation", std::string(activation));
    return b.op(op, {x, param(b, name + ".w", {in, out}), param(b, name + ".b", {out})});
}

NodeId layerNorm(GraphBuilder& b, NodeId x, std::int64_t width, const std::string& name)
{
    return b.op(OpKind::LayerNorm, {x, param(b, name + ".g", {width}), param(b, name + ".b", {width})});
}

NodeId attention(GraphBuilder& b, NodeId q, NodeId k, NodeId v, std::int64_t heads, std::int64_t width, bool causal)
{
    Op op = edit::defaultOp(OpKind::Attention);
    op.attrs.set("num_heads", heads);
    op.attrs.set("head_dim", width / heads);
    op.attrs.set("mask_kind", std::string(causal ? "Causal" : "None"));
    return b.op(op, {q, k, v});
}

struct TransformerShape {
    std::int64_t width, heads, seq, layers;
};

std::string transformerName(const char* family, const TransformerShape& t)
{
    return std::string(family) + "-h" + std::to_string(t.width) + "-s" + std::to_string(t.seq) + "-l"
           + std::to_string(t.layers);
}

// GPT-2 style: pre-norm, causal, separate q/k/v projections, GELU (tanh) MLP of 4× width, final LayerNorm.
Graph gpt(const TransformerShape& t, std::int64_t batch)
{
    GraphBuilder b(transformerName("gpt", t));
    const std::int64_t H = t.width;
    NodeId x = b.leaf(OpKind::Input, "x", Shape::of({batch, t.seq, H}));
    for (std::int64_t l = 0; l < t.layers; ++l) {
        const std::string s = "h" + std::to_string(l);
        const NodeId n1 = layerNorm(b, x, H, s + ".ln1");
        const NodeId att = attention(b, dense(b, n1, H, H, s + ".q", nullptr), dense(b, n1, H, H, s + ".k", nullptr),
                                     dense(b, n1, H, H, s + ".v", nullptr), t.heads, H, true);
        x = binary(b, "Add", x, dense(b, att, H, H, s + ".o", nullptr));
        const NodeId up = dense(b, layerNorm(b, x, H, s + ".ln2"), H, 4 * H, s + ".fc", "GeluApprox");
        x = binary(b, "Add", x, dense(b, up, 4 * H, H, s + ".proj", nullptr));
    }
    return b.finish({layerNorm(b, x, H, "ln_f")});
}

// BERT style: post-norm, bidirectional, fused linear layers (RLX's FusedMatMulBiasAct), GELU MLP, tanh pooler.
Graph bert(const TransformerShape& t, std::int64_t batch)
{
    GraphBuilder b(transformerName("bert", t));
    const std::int64_t H = t.width;
    NodeId x = layerNorm(b, b.leaf(OpKind::Input, "x", Shape::of({batch, t.seq, H})), H, "emb.ln");
    for (std::int64_t l = 0; l < t.layers; ++l) {
        const std::string s = "l" + std::to_string(l);
        const NodeId att =
            attention(b, fusedDense(b, x, H, H, s + ".q", nullptr), fusedDense(b, x, H, H, s + ".k", nullptr),
                      fusedDense(b, x, H, H, s + ".v", nullptr), t.heads, H, false);
        x = layerNorm(b, binary(b, "Add", x, fusedDense(b, att, H, H, s + ".o", nullptr)), H, s + ".ln1");
        const NodeId up = fusedDense(b, x, H, 4 * H, s + ".fc", "Gelu");
        x = layerNorm(b, binary(b, "Add", x, fusedDense(b, up, 4 * H, H, s + ".proj", nullptr)), H, s + ".ln2");
    }
    return b.finish({x});
}

Graph mlp(const Dims& widths, const char* activation, std::int64_t batch)
{
    std::string name = "mlp";
    for (std::int64_t w : widths)
        name += "-" + std::to_string(w);
    GraphBuilder b(name + "-" + activation);
    NodeId x = b.leaf(OpKind::Input, "x", Shape::of({batch, widths.front()}));
    for (std::size_t i = 1; i < widths.size(); ++i)
        x = dense(b, x, widths[i - 1], widths[i], "fc" + std::to_string(i),
                  i + 1 < widths.size() ? activation : nullptr);
    return b.finish({b.op(OpKind::Softmax, {x})});
}

NodeId conv(GraphBuilder& b, NodeId x, std::int64_t cin, std::int64_t cout, std::int64_t k, std::int64_t stride,
            std::int64_t groups, const std::string& name)
{
    Op op = edit::defaultOp(OpKind::Conv);
    op.attrs.set("kernel_size", Dims{k, k});
    op.attrs.set("stride", Dims{stride, stride});
    op.attrs.set("padding", Dims{k / 2, k / 2});
    op.attrs.set("groups", groups);
    return b.op(op, {x, param(b, name + ".w", {cout, cin / groups, k, k}), param(b, name + ".b", {cout})});
}

NodeId pool(GraphBuilder& b, NodeId x, const char* kind, std::int64_t k, std::int64_t stride)
{
    Op op = edit::defaultOp(OpKind::Pool);
    op.attrs.set("kind", std::string(kind));
    op.attrs.set("kernel_size", Dims{k, k});
    op.attrs.set("stride", Dims{stride, stride});
    return b.op(op, {x});
}

// Global average pool, flatten, a classifier of 10 classes.
NodeId head(GraphBuilder& b, NodeId x, std::int64_t batch, std::int64_t channels, std::int64_t spatial)
{
    x = pool(b, x, "Avg", spatial, spatial);
    Op flat = edit::defaultOp(OpKind::Reshape);
    flat.attrs.set("new_shape", Dims{batch, channels});
    x = b.op(flat, {x});
    return dense(b, x, channels, 10, "classifier", nullptr);
}

struct CnnShape {
    std::int64_t image, width, stages;
};

std::string cnnName(const char* family, const CnnShape& c)
{
    return std::string(family) + "-i" + std::to_string(c.image) + "-c" + std::to_string(c.width) + "-st"
           + std::to_string(c.stages);
}

// ResNet basic blocks: two 3x3 convolutions and a residual add per stage; stride-2 stages double the width.
Graph resnet(const CnnShape& c, std::int64_t batch)
{
    GraphBuilder b(cnnName("resnet", c));
    std::int64_t ch = c.width, size = c.image;
    NodeId x =
        act(b, "Relu", conv(b, b.leaf(OpKind::Input, "x", Shape::of({batch, 3, size, size})), 3, ch, 3, 1, 1, "stem"));
    for (std::int64_t s = 0; s < c.stages; ++s) {
        const std::string n = "stage" + std::to_string(s);
        if (s > 0) {
            x = act(b, "Relu", conv(b, x, ch, 2 * ch, 3, 2, 1, n + ".down"));
            ch *= 2;
            size = (size + 1) / 2;
        }
        const NodeId y = conv(b, act(b, "Relu", conv(b, x, ch, ch, 3, 1, 1, n + ".a")), ch, ch, 3, 1, 1, n + ".b");
        x = act(b, "Relu", binary(b, "Add", x, y));
    }
    return b.finish({head(b, x, batch, ch, size)});
}

// VGG: two 3x3 convolutions and a 2x2 max pool per stage; the width doubles per stage.
Graph vgg(const CnnShape& c, std::int64_t batch)
{
    GraphBuilder b(cnnName("vgg", c));
    std::int64_t cin = 3, ch = c.width, size = c.image;
    NodeId x = b.leaf(OpKind::Input, "x", Shape::of({batch, 3, size, size}));
    for (std::int64_t s = 0; s < c.stages; ++s, cin = ch, ch *= 2, size /= 2) {
        const std::string n = "stage" + std::to_string(s);
        x = act(b, "Relu", conv(b, act(b, "Relu", conv(b, x, cin, ch, 3, 1, 1, n + ".a")), ch, ch, 3, 1, 1, n + ".b"));
        x = pool(b, x, "Max", 2, 2);
    }
    return b.finish({head(b, x, batch, cin, size)});
}

// MobileNet: depthwise 3x3 (groups = channels) and pointwise 1x1 convolutions; stride 2 every other block.
Graph mobilenet(const CnnShape& c, std::int64_t batch)
{
    GraphBuilder b(cnnName("mobilenet", c));
    std::int64_t ch = c.width, size = (c.image + 1) / 2;
    NodeId x =
        act(b, "Relu",
            conv(b, b.leaf(OpKind::Input, "x", Shape::of({batch, 3, c.image, c.image})), 3, ch, 3, 2, 1, "stem"));
    for (std::int64_t s = 0; s < 2 * c.stages; ++s) {
        const std::string n = "block" + std::to_string(s);
        const std::int64_t stride = s % 2 == 1 ? 2 : 1;
        x = act(b, "Relu", conv(b, x, ch, ch, 3, stride, ch, n + ".dw"));
        size = stride == 2 ? (size + 1) / 2 : size;
        const std::int64_t out = stride == 2 ? 2 * ch : ch;
        x = act(b, "Relu", conv(b, x, ch, out, 1, 1, 1, n + ".pw"));
        ch = out;
    }
    return b.finish({head(b, x, batch, ch, size)});
}

// ShuffleNet units: grouped 1x1, channel shuffle (reshape, transpose, reshape), depthwise 3x3, grouped 1x1, add.
Graph shufflenet(const CnnShape& c, std::int64_t groups, std::int64_t batch)
{
    GraphBuilder b(cnnName("shufflenet", c) + "-g" + std::to_string(groups));
    const std::int64_t ch = c.width * groups, size = c.image / 2;
    NodeId x =
        act(b, "Relu",
            conv(b, b.leaf(OpKind::Input, "x", Shape::of({batch, 3, c.image, c.image})), 3, ch, 3, 2, 1, "stem"));
    for (std::int64_t s = 0; s < 2 * c.stages; ++s) {
        const std::string n = "unit" + std::to_string(s);
        NodeId y = act(b, "Relu", conv(b, x, ch, ch, 1, 1, groups, n + ".g1"));
        Op split = edit::defaultOp(OpKind::Reshape);
        split.attrs.set("new_shape", Dims{batch, groups, ch / groups, size, size});
        Op perm = edit::defaultOp(OpKind::Transpose);
        perm.attrs.set("perm", Dims{0, 2, 1, 3, 4});
        Op merge = edit::defaultOp(OpKind::Reshape);
        merge.attrs.set("new_shape", Dims{batch, ch, size, size});
        y = b.op(merge, {b.op(perm, {b.op(split, {y})})});
        y = conv(b, conv(b, y, ch, ch, 3, 1, ch, n + ".dw"), ch, ch, 1, 1, groups, n + ".g2");
        x = act(b, "Relu", binary(b, "Add", x, y));
    }
    return b.finish({head(b, x, batch, ch, size)});
}

std::vector<ZooGraph> buildZoo()
{
    std::vector<ZooGraph> zoo;
    for (const TransformerShape& t : {TransformerShape{256, 4, 64, 2},
                                      {256, 4, 512, 1},
                                      {512, 8, 128, 2},
                                      {512, 8, 1024, 1},
                                      {768, 12, 32, 2},
                                      {768, 12, 256, 1},
                                      {1024, 16, 128, 1},
                                      {2048, 16, 64, 1}})
        zoo.push_back({"gpt", transformerName("gpt", t), [t](std::int64_t n) { return gpt(t, n); }});
    for (const TransformerShape& t : {TransformerShape{256, 4, 128, 2},
                                      {384, 6, 64, 2},
                                      {512, 8, 256, 1},
                                      {768, 12, 64, 2},
                                      {768, 12, 512, 1},
                                      {1024, 16, 32, 2},
                                      {1536, 16, 128, 1}})
        zoo.push_back({"bert", transformerName("bert", t), [t](std::int64_t n) { return bert(t, n); }});
    const std::vector<std::pair<Dims, const char*>> mlps = {
        {{784, 512, 256, 10}, "Relu"}, {{256, 1024, 1024, 256}, "Gelu"},       {{512, 2048, 512}, "Relu"},
        {{1024, 4096, 1024}, "Gelu"},  {{2048, 2048, 2048, 2048, 10}, "Relu"}, {{128, 256, 256, 256, 256, 10}, "Tanh"}};
    for (const auto& [widths, activation] : mlps) {
        const Graph probe = mlp(widths, activation, 1);
        zoo.push_back({"mlp", probe.name, [w = widths, a = activation](std::int64_t n) { return mlp(w, a, n); }});
    }
    for (const CnnShape& c : {CnnShape{32, 16, 3}, {32, 32, 3}, {64, 16, 3}, {56, 64, 2}, {112, 32, 3}, {64, 64, 2}})
        zoo.push_back({"resnet", cnnName("resnet", c), [c](std::int64_t n) { return resnet(c, n); }});
    for (const CnnShape& c : {CnnShape{32, 16, 3}, {32, 32, 3}, {64, 32, 3}, {64, 64, 2}, {112, 16, 4}})
        zoo.push_back({"vgg", cnnName("vgg", c), [c](std::int64_t n) { return vgg(c, n); }});
    for (const CnnShape& c : {CnnShape{64, 16, 2}, {64, 32, 2}, {112, 32, 2}, {128, 16, 3}, {96, 64, 1}})
        zoo.push_back({"mobilenet", cnnName("mobilenet", c), [c](std::int64_t n) { return mobilenet(c, n); }});
    for (const auto& [c, g] : std::vector<std::pair<CnnShape, std::int64_t>>{
             {{32, 16, 1}, 2}, {{64, 8, 1}, 4}, {{56, 16, 2}, 4}, {{64, 32, 1}, 8}, {{112, 8, 1}, 3}})
        zoo.push_back({"shufflenet", cnnName("shufflenet", c) + "-g" + std::to_string(g),
                       [c, g](std::int64_t n) { return shufflenet(c, g, n); }});
    return zoo;
}

} // namespace

const std::vector<ZooGraph>& modelZoo()
{
    static const std::vector<ZooGraph> zoo = buildZoo();
    return zoo;
}

std::vector<std::string> zooFamilies()
{
    std::vector<std::string> families;
    for (const ZooGraph& z : modelZoo())
        if (std::find(families.begin(), families.end(), z.family) == families.end())
            families.push_back(z.family);
    return families;
}

} // namespace costscope
