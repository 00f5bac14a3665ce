// SPDX-License-Identifier: MIT
#pragma once
// One or two hand-built graphs per op family with host-computed reference values (see cuda_cases.h).

#include "cuda_attention_cases.h"
#include "cuda_cases.h"

namespace costscope::cudacases {

using A = std::vector<std::int64_t>;

inline std::vector<Case> elementwiseCases()
{
    std::vector<Case> out;
    { // broadcast [2,3] + [3]
        Builder b;
        const auto x = values(6, 1), y = values(3, 2);
        auto ix = b.input({2, 3}), iy = b.input({3});
        auto add = b.op(OpKind::Binary, attrs({{"op", std::string("Add")}}), {ix, iy}, {2, 3});
        std::vector<float> want(6);
        for (int i = 0; i < 6; ++i)
            want[std::size_t(i)] = x[std::size_t(i)] + y[std::size_t(i % 3)];
        out.push_back({"Binary.Add broadcast", b.finish(add), {tensor({2, 3}, x), tensor({3}, y)}, want});
    }
    { // same-shape Mul with a tail after the float4 part; Div by a [1003,1]-broadcast column is the other path
        Builder b;
        const auto x = values(1003, 3), y = values(1003, 4);
        auto ix = b.input({1003}), iy = b.input({1003});
        auto mul = b.op(OpKind::Binary, attrs({{"op", std::string("Mul")}}), {ix, iy}, {1003});
        std::vector<float> want(1003);
        for (std::size_t i = 0; i < want.size(); ++i)
            want[i] = x[i] * y[i];
        out.push_back({"Binary.Mul dense", b.finish(mul), {tensor({1003}, x), tensor({1003}, y)}, want});
    }
    { // Compare -> Where -> GatherElements -> Pad -> Tile: the selection and index-mapped copies in one graph
        Builder b;
        const auto x = values(6, 17), y = values(6, 18);
        const std::vector<std::int64_t> idx = {2, 0, 1, 1, 1, 0};
        auto ix = b.input({2, 3}), iy = b.input({2, 3});
        auto gt = b.op(OpKind::Compare, attrs({{"op", std::string("Gt")}}), {ix, iy}, {2, 3}, DType::Bool);
        auto mx = b.op(OpKind::Where, {}, {gt, ix, iy}, {2, 3});
        auto ge = b.op(OpKind::GatherElements, attrs({{"axis", std::int64_t(1)}}), {mx, b.indices({2, 3}, idx)}, {2, 3});
        auto pd = b.op(OpKind::Pad, attrs({{"pads", A{0, 1, 0, 1}}, {"value", 0.5}}), {ge}, {2, 5});
        auto tl = b.op(OpKind::Tile, {}, {pd, b.indices({2}, {2, 1})}, {4, 5});
        std::vector<float> want;
        for (int r = 0; r < 4; ++r) {
            want.push_back(0.5f);
            for (int j = 0; j < 3; ++j) {
                const auto k = std::size_t((r % 2) * 3 + idx[std::size_t((r % 2) * 3 + j)]);
                want.push_back(std::max(x[k], y[k]));
            }
            want.push_back(0.5f);
        }
        out.push_back({"Compare Where GatherElements Pad Tile", b.finish(tl), {tensor({2, 3}, x), tensor({2, 3}, y)},
                       want});
    }
    { // IsNaN -> Where(isnan, 0, x): the NaN guard after each softmax of the exported GPT-2 and BERT graphs
        Builder b;
        auto x = values(40, 19);
        x[7] = NAN;
        auto ix = b.input({4, 10});
        auto nan = b.op(OpKind::Activation, attrs({{"op", std::string("IsNaN")}}), {ix}, {4, 10}, DType::Bool);
        auto guarded = b.op(OpKind::Where, {}, {nan, b.param({}, {0.0f}), ix}, {4, 10});
        std::vector<float> want = x;
        want[7] = 0.0f;
        out.push_back({"IsNaN Where", b.finish(guarded), {tensor({4, 10}, x)}, want});
    }
    { // The attention masks of the Hugging Face exports: Compare, And over Bool, Where; GatherND (an op the import
      // keeps under its ONNX name) picking elements by constant index tuples
        Builder b;
        const auto x = values(6, 21), y = values(6, 22);
        auto ix = b.input({2, 3}), iy = b.input({2, 3});
        auto gt = b.op(OpKind::Compare, attrs({{"op", std::string("Gt")}}), {ix, iy}, {2, 3}, DType::Bool);
        auto half = b.param({2, 3}, std::vector<float>(6, 0.5f));
        auto lt = b.op(OpKind::Compare, attrs({{"op", std::string("Lt")}}), {ix, half}, {2, 3}, DType::Bool);
        auto both = b.op(OpKind::Binary, attrs({{"op", std::string("And")}}), {gt, lt}, {2, 3}, DType::Bool);
        auto picked = b.op(OpKind::Where, {}, {both, ix, iy}, {2, 3});
        auto nd = b.op(OpKind::Unknown, {}, {picked, b.indices({3, 2}, {1, 2, 0, 1, 0, 0})}, {3});
        b.g.nodes.back().op = Op::unknown("GatherND");
        std::vector<float> want;
        for (std::size_t k : {std::size_t(5), std::size_t(1), std::size_t(0)}) // the And: false, true, half true
            want.push_back(x[k] > y[k] && x[k] < 0.5f ? x[k] : y[k]);
        out.push_back({"Compare And Where GatherND", b.finish(nd), {tensor({2, 3}, x), tensor({2, 3}, y)}, want});
    }
    for (const char* act : {"Gelu", "Tanh", "Silu"}) {
        Builder b;
        const auto x = values(37, 5);
        auto ix = b.input({37});
        auto y = b.op(OpKind::Activation, attrs({{"op", std::string(act)}}), {ix}, {37});
        std::vector<float> want;
        for (float v : x) {
            const std::string a = act;
            want.push_back(a == "Gelu" ? float(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))))
                           : a == "Tanh" ? std::tanh(v) : float(v / (1 + std::exp(-double(v)))));
        }
        out.push_back({std::string("Activation.") + act, b.finish(y), {tensor({37}, x)}, want});
    }
    return out;
}

inline std::vector<Case> matmulCases()
{
    std::vector<Case> out;
    { // batched [2,3,4] x [2,4,5] (strided batched) and a shared B (folded into M)
        for (bool sharedB : {false, true}) {
            Builder b;
            const auto x = values(24, 6), w = values(sharedB ? 20 : 40, 7);
            auto ix = b.input({2, 3, 4});
            auto pw = b.param(sharedB ? A{4, 5} : A{2, 4, 5}, w);
            auto mm = b.op(OpKind::MatMul, {}, {ix, pw}, {2, 3, 5});
            std::vector<float> want;
            for (int batch = 0; batch < 2; ++batch) {
                auto c = matmulRef(x.data() + batch * 12, w.data() + (sharedB ? 0 : batch * 20), 3, 4, 5);
                want.insert(want.end(), c.begin(), c.end());
            }
            out.push_back({sharedB ? "MatMul shared B" : "MatMul batched", b.finish(mm), {tensor({2, 3, 4}, x)},
                           want});
        }
    }
    { // FusedMatMulBiasAct with Relu
        Builder b;
        const auto x = values(6, 8), w = values(12, 9), bias = values(4, 10);
        auto ix = b.input({2, 3});
        auto pw = b.param({3, 4}, w), pb = b.param({4}, bias);
        auto f = b.op(OpKind::FusedMatMulBiasAct, attrs({{"activation", std::string("Relu")}}), {ix, pw, pb}, {2, 4});
        auto want = matmulRef(x.data(), w.data(), 2, 3, 4);
        for (std::size_t i = 0; i < want.size(); ++i)
            want[i] = std::max(0.0f, want[i] + bias[i % 4]);
        out.push_back({"FusedMatMulBiasAct", b.finish(f), {tensor({2, 3}, x)}, want});
    }
    { // Gemm trans_b, alpha 2, beta 0.5, C [4] broadcast over rows
        Builder b;
        const auto x = values(6, 11), w = values(12, 12), c = values(4, 13);
        auto ix = b.input({2, 3});
        auto pw = b.param({4, 3}, w), pc = b.param({4}, c);
        auto g = b.op(OpKind::Gemm, attrs({{"trans_b", std::int64_t(1)}, {"alpha", 2.0}, {"beta", 0.5}}),
                      {ix, pw, pc}, {2, 4});
        std::vector<float> want(8);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 4; ++j) {
                double acc = 0;
                for (int p = 0; p < 3; ++p)
                    acc += double(x[std::size_t(i * 3 + p)]) * w[std::size_t(j * 3 + p)];
                want[std::size_t(i * 4 + j)] = float(2.0 * acc + 0.5 * c[std::size_t(j)]);
            }
        out.push_back({"Gemm transB", b.finish(g), {tensor({2, 3}, x)}, want});
    }
    return out;
}

inline std::vector<Case> reductionCases()
{
    std::vector<Case> out;
    { // Reduce.Mean over the middle axis (strided path), no keepdims
        Builder b;
        const auto x = values(24, 14);
        auto ix = b.input({2, 3, 4});
        auto r = b.op(OpKind::Reduce, attrs({{"op", std::string("Mean")}, {"axes", A{1}}, {"keepdims", std::int64_t(0)}}),
                      {ix}, {2, 4});
        std::vector<float> want(8, 0.0f);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 4; ++k)
                    want[std::size_t(i * 4 + k)] += x[std::size_t(i * 12 + j * 4 + k)] / 3.0f;
        out.push_back({"Reduce.Mean middle", b.finish(r), {tensor({2, 3, 4}, x)}, want});
    }
    { // Reduce.Max over the last axis (row path), keepdims
        Builder b;
        const auto x = values(700, 15);
        auto ix = b.input({2, 350});
        auto r = b.op(OpKind::Reduce, attrs({{"op", std::string("Max")}, {"axes", A{-1}}}), {ix}, {2, 1});
        std::vector<float> want = {*std::max_element(x.begin(), x.begin() + 350),
                                   *std::max_element(x.begin() + 350, x.end())};
        out.push_back({"Reduce.Max rows", b.finish(r), {tensor({2, 350}, x)}, want});
    }
    for (bool logarithm : {false, true}) { // Softmax over the last axis; LogSoftmax over axis 0 (strided)
        Builder b;
        const auto x = values(15, 16);
        auto ix = b.input({3, 5});
        const std::int64_t axis = logarithm ? 0 : -1;
        auto s = b.op(logarithm ? OpKind::LogSoftmax : OpKind::Softmax, attrs({{"axis", axis}}), {ix}, {3, 5});
        std::vector<float> want(15);
        const int n = logarithm ? 3 : 5, lines = logarithm ? 5 : 3;
        for (int l = 0; l < lines; ++l) {
            auto at = [&](int i) { return std::size_t(logarithm ? i * 5 + l : l * 5 + i); };
            double mx = -INFINITY, sum = 0;
            for (int i = 0; i < n; ++i)
                mx = std::max(mx, double(x[at(i)]));
            for (int i = 0; i < n; ++i)
                sum += std::exp(x[at(i)] - mx);
            for (int i = 0; i < n; ++i)
                want[at(i)] = float(logarithm ? x[at(i)] - mx - std::log(sum) : std::exp(x[at(i)] - mx) / sum);
        }
        out.push_back({logarithm ? "LogSoftmax axis 0" : "Softmax", b.finish(s), {tensor({3, 5}, x)}, want});
    }
    for (bool rms : {false, true}) {
        Builder b;
        const auto x = values(2 * 300, 17), g = values(300, 18), be = values(300, 19);
        auto ix = b.input({2, 300});
        auto pg = b.param({300}, g);
        std::vector<NodeId> in = {ix, pg};
        if (!rms)
            in.push_back(b.param({300}, be));
        auto nrm = b.op(rms ? OpKind::RmsNorm : OpKind::LayerNorm, {}, in, {2, 300});
        std::vector<float> want(600);
        for (int r = 0; r < 2; ++r) {
            double mean = 0, var = 0;
            for (int i = 0; i < 300 && !rms; ++i)
                mean += x[std::size_t(r * 300 + i)] / 300.0;
            for (int i = 0; i < 300; ++i)
                var += std::pow(x[std::size_t(r * 300 + i)] - mean, 2) / 300.0;
            const double inv = 1.0 / std::sqrt(var + (rms ? 1e-6 : 1e-5));
            for (int i = 0; i < 300; ++i)
                want[std::size_t(r * 300 + i)] = float((x[std::size_t(r * 300 + i)] - mean) * inv * g[std::size_t(i)]
                                                       + (rms ? 0.0 : be[std::size_t(i)]));
        }
        out.push_back({rms ? "RmsNorm" : "LayerNorm", b.finish(nrm), {tensor({2, 300}, x)}, want});
    }
    { // causal attention, 2 heads of 40 (two register slots per lane, one partly used), Sq = Sk = 5
        const int s = 5, h = 2, d = 40, w = h * d;
        Builder b;
        const auto q = values(std::size_t(s * w), 20), k = values(std::size_t(s * w), 21), v = values(std::size_t(s * w), 22);
        auto iq = b.input({1, s, w}), ik = b.input({1, s, w}), iv = b.input({1, s, w});
        auto at = b.op(OpKind::Attention,
                       attrs({{"num_heads", std::int64_t(h)}, {"head_dim", std::int64_t(d)}, {"mask_kind", std::string("Causal")}}),
                       {iq, ik, iv}, {1, s, w});
        std::vector<float> want(std::size_t(s * w));
        for (int hh = 0; hh < h; ++hh)
            for (int i = 0; i < s; ++i) {
                std::vector<double> p(std::size_t(s), 0.0);
                double mx = -INFINITY, sum = 0;
                for (int j = 0; j <= i; ++j) {
                    double dot = 0;
                    for (int e = 0; e < d; ++e)
                        dot += double(q[std::size_t(i * w + hh * d + e)]) * k[std::size_t(j * w + hh * d + e)];
                    p[std::size_t(j)] = dot / std::sqrt(double(d));
                    mx = std::max(mx, p[std::size_t(j)]);
                }
                for (int j = 0; j <= i; ++j)
                    sum += (p[std::size_t(j)] = std::exp(p[std::size_t(j)] - mx));
                for (int e = 0; e < d; ++e) {
                    double acc = 0;
                    for (int j = 0; j <= i; ++j)
                        acc += p[std::size_t(j)] / sum * v[std::size_t(j * w + hh * d + e)];
                    want[std::size_t(i * w + hh * d + e)] = float(acc);
                }
            }
        out.push_back({"Attention causal", b.finish(at), {tensor({1, s, w}, q), tensor({1, s, w}, k), tensor({1, s, w}, v)},
                       want});
    }
    return out;
}

inline std::vector<Case> layoutCases()
{
    std::vector<Case> out;
    { // Transpose -> Slice (attrs) -> Concat with a Gather of the input's rows, then a Reshape (alias)
        Builder b;
        const auto x = values(6, 23);
        auto ix = b.input({2, 3});
        auto t = b.op(OpKind::Transpose, attrs({{"perm", A{1, 0}}}), {ix}, {3, 2});                    // [3,2]
        auto sl = b.op(OpKind::Slice, attrs({{"starts", A{1}}, {"ends", A{3}}, {"axes", A{0}}}), {t}, {2, 2}); // rows 1..2
        auto idx = b.indices({2}, {1, -2});                                                              // rows 1, 0 of x
        auto ga = b.op(OpKind::Gather, attrs({{"axis", std::int64_t(0)}}), {ix, idx}, {2, 3});
        auto cat = b.op(OpKind::Concat, attrs({{"axis", std::int64_t(1)}}), {sl, ga}, {2, 5});
        auto rs = b.op(OpKind::Reshape, {}, {cat}, {10});
        std::vector<float> want;
        for (int r = 0; r < 2; ++r) {
            want.push_back(x[std::size_t(0 * 3 + r + 1)]); // t[r+1][0] = x[0][r+1]
            want.push_back(x[std::size_t(1 * 3 + r + 1)]);
            const int src = r == 0 ? 1 : 0;
            for (int c = 0; c < 3; ++c)
                want.push_back(x[std::size_t(src * 3 + c)]);
        }
        out.push_back({"Transpose Slice Gather Concat Reshape", b.finish(rs), {tensor({2, 3}, x)}, want});
    }
    { // Narrow of the last axis ([2,3,6] -> [2,3,3] from 2): six spans of 3 at a pitch of 6 (the 2-D memcpy path),
      // then a Slice of the middle axis of that (spans of 3 rows at a pitch of 9)
        Builder b;
        const auto x = values(36, 63);
        auto ix = b.input({2, 3, 6});
        auto nw = b.op(OpKind::Narrow,
                       attrs({{"axis", std::int64_t(2)}, {"start", std::int64_t(2)}, {"len", std::int64_t(3)}}), {ix},
                       {2, 3, 3});
        auto sl = b.op(OpKind::Slice, attrs({{"starts", A{1}}, {"ends", A{3}}, {"axes", A{1}}}), {nw}, {2, 2, 3});
        std::vector<float> want;
        for (int i = 0; i < 2; ++i)
            for (int j = 1; j < 3; ++j)
                for (int k = 2; k < 5; ++k)
                    want.push_back(x[std::size_t(i * 18 + j * 6 + k)]);
        out.push_back({"Narrow Slice as 2-D copies", b.finish(sl), {tensor({2, 3, 6}, x)}, want});
    }
    return out;
}

inline std::vector<Case> convSpectralCases()
{
    std::vector<Case> out;
    { // Conv 3x3 pad 1 with bias, 2 output channels, then Max pool 2x2 stride 2
        Builder b;
        const auto x = values(16, 24), w = values(18, 25), bias = values(2, 26);
        auto ix = b.input({1, 1, 4, 4});
        auto cv = b.op(OpKind::Conv, attrs({{"padding", A{1, 1}}}), {ix, b.param({2, 1, 3, 3}, w), b.param({2}, bias)},
                       {1, 2, 4, 4});
        auto pl = b.op(OpKind::Pool, attrs({{"kind", std::string("Max")}, {"kernel_size", A{2, 2}}, {"stride", A{2, 2}}}),
                       {cv}, {1, 2, 2, 2});
        std::vector<float> conv(32);
        for (int oc = 0; oc < 2; ++oc)
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) {
                    double acc = bias[std::size_t(oc)];
                    for (int ki = 0; ki < 3; ++ki)
                        for (int kj = 0; kj < 3; ++kj) {
                            const int yi = i - 1 + ki, xj = j - 1 + kj;
                            if (yi >= 0 && yi < 4 && xj >= 0 && xj < 4)
                                acc += double(x[std::size_t(yi * 4 + xj)]) * w[std::size_t(oc * 9 + ki * 3 + kj)];
                        }
                    conv[std::size_t(oc * 16 + i * 4 + j)] = float(acc);
                }
        std::vector<float> want;
        for (int oc = 0; oc < 2; ++oc)
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) {
                    float m = -INFINITY;
                    for (int di = 0; di < 2; ++di)
                        for (int dj = 0; dj < 2; ++dj)
                            m = std::max(m, conv[std::size_t(oc * 16 + (2 * i + di) * 4 + 2 * j + dj)]);
                    want.push_back(m);
                }
        out.push_back({"Conv + Pool", b.finish(pl), {tensor({1, 1, 4, 4}, x)}, want});
    }
    { // global average pool over a 20x20 window (the block-per-output path, a window under its 256 threads' two
      // strides), batch 2, 3 channels
        Builder b;
        const auto x = values(2 * 3 * 400, 61);
        auto ix = b.input({2, 3, 20, 20});
        auto pl =
            b.op(OpKind::Pool, attrs({{"kind", std::string("Avg")}, {"kernel_size", A{20, 20}}, {"stride", A{20, 20}}}),
                 {ix}, {2, 3, 1, 1});
        std::vector<float> want;
        for (int p = 0; p < 6; ++p) {
            double acc = 0;
            for (int i = 0; i < 400; ++i)
                acc += x[std::size_t(p * 400 + i)];
            want.push_back(float(acc / 400));
        }
        out.push_back({"Pool.Avg global 20x20", b.finish(pl), {tensor({2, 3, 20, 20}, x)}, want});
    }
    { // max pool 9x9, stride 3, padding 2 (the warp path with windows that overhang the input)
        Builder b;
        const auto x = values(2 * 144, 62);
        auto ix = b.input({1, 2, 12, 12});
        auto pl = b.op(
            OpKind::Pool,
            attrs({{"kind", std::string("Max")}, {"kernel_size", A{9, 9}}, {"stride", A{3, 3}}, {"padding", A{2, 2}}}),
            {ix}, {1, 2, 3, 3});
        std::vector<float> want;
        for (int c = 0; c < 2; ++c)
            for (int oi = 0; oi < 3; ++oi)
                for (int oj = 0; oj < 3; ++oj) {
                    float m = -INFINITY;
                    for (int ki = 0; ki < 9; ++ki)
                        for (int kj = 0; kj < 9; ++kj) {
                            const int i = oi * 3 - 2 + ki, j = oj * 3 - 2 + kj;
                            if (i >= 0 && i < 12 && j >= 0 && j < 12)
                                m = std::max(m, x[std::size_t(c * 144 + i * 12 + j)]);
                        }
                    want.push_back(m);
                }
        out.push_back({"Pool.Max 9x9 padded", b.finish(pl), {tensor({1, 2, 12, 12}, x)}, want});
    }
    { // grouped, strided conv over a batch of 2: groups 2, stride 2, pad 1, 4 -> 6 channels
        Builder b;
        const auto x = values(2 * 4 * 25, 33), w = values(6 * 2 * 9, 34);
        auto ix = b.input({2, 4, 5, 5});
        auto cv = b.op(OpKind::Conv, attrs({{"padding", A{1, 1}}, {"stride", A{2, 2}}, {"groups", std::int64_t(2)}}),
                       {ix, b.param({6, 2, 3, 3}, w)}, {2, 6, 3, 3});
        std::vector<float> want;
        for (int n = 0; n < 2; ++n)
            for (int oc = 0; oc < 6; ++oc)
                for (int i = 0; i < 3; ++i)
                    for (int j = 0; j < 3; ++j) {
                        double acc = 0;
                        for (int c = 0; c < 2; ++c)
                            for (int ki = 0; ki < 3; ++ki)
                                for (int kj = 0; kj < 3; ++kj) {
                                    const int yi = 2 * i - 1 + ki, xj = 2 * j - 1 + kj, ic = (oc / 3) * 2 + c;
                                    if (yi >= 0 && yi < 5 && xj >= 0 && xj < 5)
                                        acc += double(x[std::size_t(((n * 4 + ic) * 5 + yi) * 5 + xj)])
                                            * w[std::size_t(((oc * 2 + c) * 3 + ki) * 3 + kj)];
                                }
                        want.push_back(float(acc));
                    }
        out.push_back({"Conv grouped strided", b.finish(cv), {tensor({2, 4, 5, 5}, x)}, want});
    }
    { // depthwise with a channel multiplier of 2 over a batch of 2: 6 groups of 1 -> 2 channels, pad 1
        Builder b;
        const auto x = values(2 * 6 * 25, 35), w = values(12 * 9, 36);
        auto ix = b.input({2, 6, 5, 5});
        auto cv = b.op(OpKind::Conv, attrs({{"padding", A{1, 1}}, {"groups", std::int64_t(6)}}),
                       {ix, b.param({12, 1, 3, 3}, w)}, {2, 12, 5, 5});
        std::vector<float> want;
        for (int n = 0; n < 2; ++n)
            for (int oc = 0; oc < 12; ++oc)
                for (int i = 0; i < 5; ++i)
                    for (int j = 0; j < 5; ++j) {
                        double acc = 0;
                        for (int ki = 0; ki < 3; ++ki)
                            for (int kj = 0; kj < 3; ++kj) {
                                const int yi = i - 1 + ki, xj = j - 1 + kj, ic = oc / 2;
                                if (yi >= 0 && yi < 5 && xj >= 0 && xj < 5)
                                    acc += double(x[std::size_t(((n * 6 + ic) * 5 + yi) * 5 + xj)])
                                        * w[std::size_t((oc * 3 + ki) * 3 + kj)];
                            }
                        want.push_back(float(acc));
                    }
        out.push_back({"Conv depthwise x2", b.finish(cv), {tensor({2, 6, 5, 5}, x)}, want});
    }
    { // groups 2 of 5 input channels over one sample, pad 1: more groups than samples, so the products are batched
      // over the groups (depthwise layers take the direct kernel instead)
        Builder b;
        const auto x = values(10 * 16, 37), w = values(4 * 5 * 9, 38);
        auto ix = b.input({1, 10, 4, 4});
        auto cv = b.op(OpKind::Conv, attrs({{"padding", A{1, 1}}, {"groups", std::int64_t(2)}}),
                       {ix, b.param({4, 5, 3, 3}, w)}, {1, 4, 4, 4});
        std::vector<float> want;
        for (int oc = 0; oc < 4; ++oc)
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) {
                    double acc = 0;
                    for (int c = 0; c < 5; ++c)
                        for (int ki = 0; ki < 3; ++ki)
                            for (int kj = 0; kj < 3; ++kj) {
                                const int yi = i - 1 + ki, xj = j - 1 + kj, ic = (oc / 2) * 5 + c;
                                if (yi >= 0 && yi < 4 && xj >= 0 && xj < 4)
                                    acc += double(x[std::size_t((ic * 4 + yi) * 4 + xj)])
                                        * w[std::size_t(((oc * 5 + c) * 3 + ki) * 3 + kj)];
                            }
                    want.push_back(float(acc));
                }
        out.push_back({"Conv grouped, groups > batch", b.finish(cv), {tensor({1, 10, 4, 4}, x)}, want});
    }
    { // planar Fft of 2 rows of 8 points, then WelchPeaks k = 3 over the two rows as segments of one item
        const int n = 8;
        Builder b;
        const auto x = values(2 * 2 * n, 27);
        auto ix = b.input({2, 2 * n});
        auto f = b.op(OpKind::Fft, {}, {ix}, {2, 2 * n});
        auto wp = b.op(OpKind::WelchPeaks, attrs({{"k", std::int64_t(3)}, {"n_segments", std::int64_t(2)}}), {f}, {1, 6});
        std::vector<double> power(std::size_t(n / 2 + 1), 0.0);
        Builder bf;
        std::vector<float> spectrum;
        for (int r = 0; r < 2; ++r) {
            std::vector<double> re(n), im(n);
            for (int kk = 0; kk < n; ++kk)
                for (int t = 0; t < n; ++t) {
                    const double a = -2.0 * M_PI * kk * t / n;
                    const double xr = x[std::size_t(r * 2 * n + t)], xi = x[std::size_t(r * 2 * n + n + t)];
                    re[std::size_t(kk)] += xr * std::cos(a) - xi * std::sin(a);
                    im[std::size_t(kk)] += xr * std::sin(a) + xi * std::cos(a);
                }
            for (int kk = 0; kk < n; ++kk)
                spectrum.push_back(float(re[std::size_t(kk)]));
            for (int kk = 0; kk < n; ++kk)
                spectrum.push_back(float(im[std::size_t(kk)]));
            for (int kk = 0; kk <= n / 2; ++kk)
                power[std::size_t(kk)] += (re[std::size_t(kk)] * re[std::size_t(kk)] + im[std::size_t(kk)] * im[std::size_t(kk)]) / 2.0;
        }
        std::vector<int> order(power.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = int(i);
        std::stable_sort(order.begin(), order.end(), [&](int l, int r) { return power[std::size_t(l)] > power[std::size_t(r)]; });
        std::vector<float> want;
        for (int j = 0; j < 3; ++j)
            want.push_back(float(order[std::size_t(j)]));
        for (int j = 0; j < 3; ++j)
            want.push_back(float(power[std::size_t(order[std::size_t(j)])]));
        out.push_back({"Fft + WelchPeaks", b.finish(wp), {tensor({2, 2 * n}, x)}, want, 1e-3});
        auto fin = bf.input({2, 2 * n});
        auto ff = bf.op(OpKind::Fft, {}, {fin}, {2, 2 * n});
        out.push_back({"Fft", bf.finish(ff), {tensor({2, 2 * n}, x)}, spectrum, 1e-4});
    }
    return out;
}

// The ops of the light CNNs beyond conv and pool: ConstantOfShape weights, Sum, BatchNorm, Lrn and a Cast round trip.
inline std::vector<Case> cnnOpCases()
{
    const std::int64_t n = 1, ch = 4, hw = 3, count = n * ch * hw;
    Builder b;
    const auto x = values(std::size_t(count), 28), sc = values(4, 29), bi = values(4, 30), me = values(4, 31);
    std::vector<float> var = values(4, 32);
    for (float& v : var)
        v = v * v + 0.5f;
    auto ix = b.input({n, ch, hw});
    auto shape = b.indices({3}, {n, ch, hw});
    auto fill = b.op(OpKind::ConstantOfShape, attrs({{"value", 0.25}}), {shape}, {n, ch, hw});
    auto sum = b.op(OpKind::Sum, {}, {ix, fill, b.param({hw}, {1.0f, 2.0f, 3.0f})}, {n, ch, hw});
    auto bn = b.op(OpKind::BatchNorm, {}, {sum, b.param({ch}, sc), b.param({ch}, bi), b.param({ch}, me), b.param({ch}, var)},
                   {n, ch, hw});
    auto lrn = b.op(OpKind::Lrn, attrs({{"size", std::int64_t(3)}, {"alpha", 0.5}}), {bn}, {n, ch, hw});
    auto toInt = b.op(OpKind::Cast, attrs({{"to", std::string("I64")}}), {lrn}, {n, ch, hw}, DType::I64);
    auto back = b.op(OpKind::Cast, attrs({{"to", std::string("F32")}}), {toInt}, {n, ch, hw});
    auto out = b.op(OpKind::Binary, attrs({{"op", std::string("Add")}}), {lrn, back}, {n, ch, hw});
    std::vector<double> bnv(static_cast<std::size_t>(count)), want;
    for (std::int64_t c = 0; c < ch; ++c)
        for (std::int64_t i = 0; i < hw; ++i) {
            const auto k = std::size_t(c), e = std::size_t(c * hw + i);
            const double s = x[e] + 0.25 + double(i + 1);
            bnv[e] = (s - me[k]) * sc[k] / std::sqrt(double(var[k]) + 1e-5) + bi[k];
        }
    for (std::int64_t c = 0; c < ch; ++c)
        for (std::int64_t i = 0; i < hw; ++i) {
            double sq = 0;
            for (std::int64_t k = std::max<std::int64_t>(0, c - 1); k <= std::min(ch - 1, c + 1); ++k)
                sq += bnv[std::size_t(k * hw + i)] * bnv[std::size_t(k * hw + i)];
            const double l = bnv[std::size_t(c * hw + i)] / std::pow(1.0 + 0.5 / 3.0 * sq, 0.75);
            want.push_back(l + std::trunc(l));
        }
    return {{"ConstantOfShape Sum BatchNorm Lrn Cast", b.finish(out), {tensor({n, ch, hw}, x)},
             std::vector<float>(want.begin(), want.end())}};
}

inline std::vector<Case> allCases()
{
    std::vector<Case> all;
    for (auto family : {elementwiseCases, matmulCases, reductionCases, layoutCases, convSpectralCases, cnnOpCases,
                        perHeadAttentionCases})
        for (Case& c : family())
            all.push_back(std::move(c));
    return all;
}

} // namespace costscope::cudacases
