// SPDX-License-Identifier: MIT
#include "edit/graph_templates.h"

#include "analysis/welch_graphs.h"
#include "edit/graph_builder.h"
#include "edit/graph_edits.h"
#include "ir/shape_inference.h"

namespace costscope::edit {
namespace {

Shape batched(std::vector<std::int64_t> rest)
{
    Shape s;
    s.dims.push_back(Dim::named("batch"));
    for (auto d : rest)
        s.dims.push_back(Dim::fixed(d));
    return s;
}

// x·W + b, then the activation (none when empty).
NodeId dense(GraphBuilder& b, NodeId x, std::int64_t in, std::int64_t out, const std::string& scope,
             const std::string& activation)
{
    const NodeId w = b.leaf(OpKind::Param, scope + ".weight", Shape::of({in, out}), scope);
    const NodeId bias = b.leaf(OpKind::Param, scope + ".bias", Shape::of({out}), scope);
    const NodeId y = b.sub(OpKind::Binary, "Add", {b.op(OpKind::MatMul, {x, w}, scope), bias}, scope);
    return activation.empty() ? y : b.sub(OpKind::Activation, activation, {y}, scope);
}

Graph mlp()
{
    GraphBuilder b("mlp");
    const NodeId x = b.leaf(OpKind::Input, "x", batched({784}));
    const NodeId h1 = dense(b, x, 784, 512, "fc1", "Relu");
    const NodeId h2 = dense(b, h1, 512, 256, "fc2", "Relu");
    const NodeId logits = dense(b, h2, 256, 10, "head", "");
    return b.finish({b.op(OpKind::Softmax, {logits})});
}

Graph transformerBlock()
{
    constexpr std::int64_t seq = 128, width = 256, heads = 8, hidden = 1024;
    GraphBuilder b("transformer_block");
    const NodeId x = b.leaf(OpKind::Input, "x", batched({seq, width}));
    auto norm = [&](NodeId in, const std::string& scope) {
        const NodeId g = b.leaf(OpKind::Param, scope + ".weight", Shape::of({width}), scope);
        const NodeId beta = b.leaf(OpKind::Param, scope + ".bias", Shape::of({width}), scope);
        return b.op(OpKind::LayerNorm, {in, g, beta}, scope);
    };
    auto project = [&](NodeId in, const std::string& scope) {
        const NodeId w = b.leaf(OpKind::Param, scope, Shape::of({width, width}), "attn");
        return b.op(OpKind::MatMul, {in, w}, "attn");
    };
    const NodeId ln1 = norm(x, "ln1");
    Op attention = defaultOp(OpKind::Attention);
    attention.attrs.set("num_heads", heads);
    attention.attrs.set("head_dim", width / heads);
    attention.attrs.set("mask_kind", std::string("Causal"));
    const NodeId att = b.op(attention, {project(ln1, "attn.wq"), project(ln1, "attn.wk"), project(ln1, "attn.wv")},
                            "attn");
    const NodeId res1 = b.sub(OpKind::Binary, "Add", {x, project(att, "attn.wo")});
    const NodeId up = dense(b, norm(res1, "ln2"), width, hidden, "mlp.fc1", "Gelu");
    const NodeId down = dense(b, up, hidden, width, "mlp.fc2", "");
    return b.finish({b.sub(OpKind::Binary, "Add", {res1, down})});
}

} // namespace

const std::vector<TemplateInfo>& graphTemplates()
{
    static const std::vector<TemplateInfo> list{
        {GraphTemplate::Empty, "Empty graph", "Start from nothing: drag ops from the palette"},
        {GraphTemplate::Mlp, "MLP", "784 → 512 → 256 → 10 with ReLU and softmax, symbolic batch"},
        {GraphTemplate::TransformerBlock, "Transformer block",
         "Pre-norm block: attention (8 heads, causal) and a GELU MLP, width 256, seq 128, symbolic batch"},
        {GraphTemplate::WelchPeaks, "Welch-peaks pipeline", "RLX's fused FFT + WelchPeaks workload (batch 8)"},
        {GraphTemplate::FftOnly, "FFT only", "RLX's FFT-only Welch graph (batch 8): the peaks run on the host"},
    };
    return list;
}

Graph makeTemplate(GraphTemplate t)
{
    switch (t) {
    case GraphTemplate::Empty: {
        Graph g;
        g.name = "untitled";
        return g;
    }
    case GraphTemplate::Mlp: return mlp();
    case GraphTemplate::TransformerBlock: return transformerBlock();
    case GraphTemplate::WelchPeaks: return welchFusedGraph(8, WelchParams{});
    case GraphTemplate::FftOnly: return welchFftOnlyGraph(8, WelchParams{});
    }
    return {};
}

} // namespace costscope::edit
