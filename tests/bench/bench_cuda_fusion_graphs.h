// SPDX-License-Identifier: MIT
#pragma once
// Attention written out as an ONNX export writes it (MatMul, scale, mask, Softmax, MatMul and the Transposes around
// them), for the fusion pass's tests (test_fusion_plan) and the GPU bench (bench_cuda_fusion).
#include "../engine/cuda_cases.h"

#include <cmath>
#include <limits>

namespace costscope::cudacases {

struct AttentionGraphConfig {
    std::int64_t batch = 2, seq = 32, heads = 4, headDim = 16;
    // q, k, v as [batch, seq, heads, head_dim] Transposed into heads (an export of a multi-head attention), else
    // [batch, heads, seq, head_dim] with k^T a Transpose of the last two dims.
    bool interleaved = true;
    bool causalMask = true; // an additive [seq, seq] mask of 0 and -inf
    bool divide = false;    // scores / sqrt(head_dim) instead of scores * (1 / sqrt(head_dim))
};

struct AttentionGraph {
    Graph graph;
    NodeId q = 0, k = 0, v = 0, mask = 0, scale = 0, matmulQK = 0, softmax = 0, matmulPV = 0, exit = 0;
};

inline AttentionGraph attentionGraph(const AttentionGraphConfig& c)
{
    Builder b;
    AttentionGraph out;
    const std::int64_t B = c.batch, S = c.seq, H = c.heads, D = c.headDim;
    const std::vector<std::int64_t> bhsd = {B, H, S, D}, scores = {B, H, S, S};
    auto transpose = [&](NodeId x, std::vector<std::int64_t> perm, std::vector<std::int64_t> dims) {
        return b.op(OpKind::Transpose, attrs({{"perm", std::move(perm)}}), {x}, std::move(dims));
    };
    NodeId q = 0, kT = 0, v = 0;
    if (c.interleaved) {
        out.q = b.input({B, S, H, D});
        out.k = b.input({B, S, H, D});
        out.v = b.input({B, S, H, D});
        q = transpose(out.q, {0, 2, 1, 3}, bhsd);
        kT = transpose(out.k, {0, 2, 3, 1}, {B, H, D, S});
        v = transpose(out.v, {0, 2, 1, 3}, bhsd);
    } else {
        out.q = q = b.input(bhsd);
        out.k = b.input(bhsd);
        out.v = v = b.input(bhsd);
        kT = transpose(out.k, {0, 1, 3, 2}, {B, H, D, S});
    }
    out.matmulQK = b.op(OpKind::MatMul, {}, {q, kT}, scores);
    const float root = std::sqrt(float(D));
    out.scale = b.param({1}, {c.divide ? root : 1.0f / root});
    NodeId s =
        b.op(OpKind::Binary, attrs({{"op", std::string(c.divide ? "Div" : "Mul")}}), {out.matmulQK, out.scale}, scores);
    if (c.causalMask) {
        std::vector<float> mask(std::size_t(S * S), 0.0f);
        for (std::int64_t i = 0; i < S; ++i)
            for (std::int64_t j = i + 1; j < S; ++j)
                mask[std::size_t(i * S + j)] = -std::numeric_limits<float>::infinity();
        out.mask = b.param({S, S}, mask);
        s = b.op(OpKind::Binary, attrs({{"op", std::string("Add")}}), {s, out.mask}, scores);
    }
    out.softmax = b.op(OpKind::Softmax, attrs({{"axis", std::int64_t(-1)}}), {s}, scores);
    out.matmulPV = b.op(OpKind::MatMul, {}, {out.softmax, v}, bhsd);
    out.exit = c.interleaved ? transpose(out.matmulPV, {0, 2, 1, 3}, {B, S, H, D}) : out.matmulPV;
    const NodeId y = b.op(OpKind::Reshape, {}, {out.exit}, {B, S, H * D});
    out.graph = b.finish(y);
    return out;
}

} // namespace costscope::cudacases
