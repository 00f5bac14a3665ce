// SPDX-License-Identifier: MIT
#pragma once
// GPT-2- and BERT-shaped graphs with the configuration of /work/shared's gpt2_12l.onnx and bert_12l.onnx (12
// layers, hidden 64, 4 heads of 16, MLP 256, vocabulary 1000, sequence 32), built directly in the IR because the
// GPU machine has no ONNX importer. scripts/device_torch_baseline.py times the same architecture in PyTorch.
#include "../engine/cuda_cases.h"

#include <cmath>
#include <limits>

namespace costscope::cudacases {

struct TransformerConfig {
    std::int64_t batch = 1, seq = 32, hidden = 64, heads = 4, mlp = 256, vocab = 1000, layers = 12;
    bool causal = true; // GPT-2 (pre-norm, causal) or BERT (post-norm, bidirectional, pooler)
    bool decomposed = false;
    // Attention written out as a TorchScript ONNX export of GPT-2 writes it (scripts/bench_torch_compile.py): q, k, v
    // Reshaped to [batch, seq, heads, head_dim] and Transposed into heads, MatMul, Mul by 1/sqrt(head_dim), Add of a
    // [seq, seq] mask of 0 and -inf (causal; none for BERT), Softmax, MatMul with v, Transposed back and Reshaped.
    bool exportedAttention = false;
};

inline Graph transformerGraph(const TransformerConfig& c)
{
    Builder b;
    const std::int64_t B = c.batch, S = c.seq, H = c.hidden;
    auto param = [&](std::vector<std::int64_t> dims) { return b.op(OpKind::Param, {}, {}, std::move(dims)); };
    auto binary = [&](const char* op, NodeId x, NodeId y, std::vector<std::int64_t> dims) {
        return b.op(OpKind::Binary, attrs({{"op", std::string(op)}}), {x, y}, std::move(dims));
    };
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) in element-wise nodes.
    auto geluTanh = [&](NodeId x, std::vector<std::int64_t> dims) {
        auto scalar = [&](float v) { return b.param({1}, {v}); };
        const NodeId cube = binary("Mul", binary("Mul", x, x, dims), x, dims);
        const NodeId inner = binary("Add", x, binary("Mul", cube, scalar(0.044715f), dims), dims);
        const NodeId t = b.op(OpKind::Activation, attrs({{"op", std::string("Tanh")}}),
                              {binary("Mul", inner, scalar(0.7978845608f), dims)}, dims);
        return binary("Mul", binary("Mul", x, scalar(0.5f), dims), binary("Add", t, scalar(1.0f), dims), dims);
    };
    auto linear = [&](NodeId x, std::int64_t in, std::int64_t out, const char* act) {
        if (c.decomposed) {
            const NodeId y =
                binary("Add", b.op(OpKind::MatMul, {}, {x, param({in, out})}, {B, S, out}), param({out}), {B, S, out});
            return act ? geluTanh(y, {B, S, out}) : y;
        }
        Attrs a;
        if (act)
            a.set("activation", std::string(act));
        return b.op(OpKind::FusedMatMulBiasAct, a, {x, param({in, out}), param({out})}, {B, S, out});
    };
    auto norm = [&](NodeId x) { return b.op(OpKind::LayerNorm, {}, {x, param({H}), param({H})}, {B, S, H}); };
    auto add = [&](NodeId x, NodeId y) {
        return b.op(OpKind::Binary, attrs({{"op", std::string("Add")}}), {x, y}, {B, S, H});
    };
    auto writtenOutAttention = [&](NodeId q, NodeId k, NodeId v) {
        const std::int64_t N = c.heads, D = H / c.heads;
        auto transpose = [&](NodeId t, std::vector<std::int64_t> perm, std::vector<std::int64_t> dims) {
            return b.op(OpKind::Transpose, attrs({{"perm", std::move(perm)}}), {t}, std::move(dims));
        };
        auto heads = [&](NodeId t) { return b.op(OpKind::Reshape, {}, {t}, {B, S, N, D}); };
        const NodeId qh = transpose(heads(q), {0, 2, 1, 3}, {B, N, S, D});
        const NodeId kT = transpose(heads(k), {0, 2, 3, 1}, {B, N, D, S});
        const NodeId vh = transpose(heads(v), {0, 2, 1, 3}, {B, N, S, D});
        const std::vector<std::int64_t> scores = {B, N, S, S};
        NodeId s = binary("Mul", b.op(OpKind::MatMul, {}, {qh, kT}, scores),
                          b.param({1}, {float(1.0 / std::sqrt(double(D)))}), scores);
        if (c.causal) {
            std::vector<float> mask(std::size_t(S * S), 0.0f);
            for (std::int64_t i = 0; i < S; ++i)
                for (std::int64_t j = i + 1; j < S; ++j)
                    mask[std::size_t(i * S + j)] = -std::numeric_limits<float>::infinity();
            s = binary("Add", s, b.param({S, S}, mask), scores);
        }
        const NodeId p = b.op(OpKind::Softmax, attrs({{"axis", std::int64_t(-1)}}), {s}, scores);
        const NodeId o = b.op(OpKind::MatMul, {}, {p, vh}, {B, N, S, D});
        return b.op(OpKind::Reshape, {}, {transpose(o, {0, 2, 1, 3}, {B, S, N, D})}, {B, S, H});
    };
    auto ids = b.input({B, S}, DType::I64);
    auto x = b.op(OpKind::Gather, attrs({{"axis", std::int64_t(0)}}), {param({c.vocab, H}), ids}, {B, S, H});
    x = add(x, param({S, H}));
    if (!c.causal)
        x = norm(x);
    for (std::int64_t l = 0; l < c.layers; ++l) {
        const NodeId in = c.causal ? norm(x) : x;
        const NodeId qkv = linear(in, H, 3 * H, nullptr);
        NodeId part[3];
        for (int i = 0; i < 3; ++i)
            part[i] = b.op(OpKind::Narrow,
                           attrs({{"axis", std::int64_t(2)}, {"start", std::int64_t(i) * H}, {"len", H}}), {qkv},
                           {B, S, H});
        if (c.exportedAttention) {
            x = add(x, linear(writtenOutAttention(part[0], part[1], part[2]), H, H, nullptr));
        } else {
            Attrs at = attrs({{"num_heads", c.heads}, {"head_dim", H / c.heads}});
            if (c.causal)
                at.set("mask_kind", std::string("Causal"));
            const NodeId att = b.op(OpKind::Attention, at, {part[0], part[1], part[2]}, {B, S, H});
            x = add(x, linear(att, H, H, nullptr));
        }
        if (!c.causal)
            x = norm(x);
        const NodeId h = linear(c.causal ? norm(x) : x, H, c.mlp, c.causal ? "GeluApprox" : "Gelu");
        x = add(x, linear(h, c.mlp, H, nullptr));
        if (!c.causal)
            x = norm(x);
    }
    if (c.causal)
        return b.finish(b.op(OpKind::MatMul, {}, {norm(x), param({H, c.vocab})}, {B, S, c.vocab}));
    const NodeId first = b.op(OpKind::Narrow, attrs({{"axis", std::int64_t(1)}, {"start", std::int64_t(0)}, {"len", std::int64_t(1)}}),
                              {x}, {B, 1, H});
    return b.finish(b.op(OpKind::FusedMatMulBiasAct, attrs({{"activation", std::string("Tanh")}}),
                         {first, param({H, H}), param({H})}, {B, 1, H}));
}

} // namespace costscope::cudacases
