// SPDX-License-Identifier: MIT
#pragma once

// Per-head attention computed the plain way, in double, for the backends' tests and the CUDA bench (no Qt): for each
// (batch, head, query) the scaled dot products with every key, the mask, a softmax and the weighted sum of values.
// q [B, H, Sq, D], k and v [B, Hkv, Sk, D] (query head h reads KV head h / (H / Hkv)), output [B, H, Sq, D].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace costscope::test {

struct PerHeadShape {
    int batch = 1, heads = 1, kvHeads = 1, sq = 1, sk = 1, headDim = 1;
    std::vector<std::int64_t> qDims() const { return {batch, heads, sq, headDim}; }
    std::vector<std::int64_t> kvDims() const { return {batch, kvHeads, sk, headDim}; }
    std::size_t qSize() const { return std::size_t(batch) * heads * sq * headDim; }
    std::size_t kvSize() const { return std::size_t(batch) * kvHeads * sk * headDim; }
};

// `mask`: empty, or additive values [B, H, Sq, Sk] (-inf hides a key). `causal`: query i sees keys j <= i + Sk - Sq.
inline std::vector<float> referenceAttention(const PerHeadShape& s, const std::vector<float>& q,
                                             const std::vector<float>& k, const std::vector<float>& v, bool causal,
                                             const std::vector<float>& mask = {})
{
    std::vector<float> out(s.qSize(), 0.0f);
    const int group = s.heads / s.kvHeads;
    const double scale = 1.0 / std::sqrt(double(s.headDim));
    std::vector<double> p(std::size_t(s.sk));
    for (int b = 0; b < s.batch; ++b)
        for (int h = 0; h < s.heads; ++h)
            for (int i = 0; i < s.sq; ++i) {
                const std::size_t qo = ((std::size_t(b) * s.heads + h) * s.sq + i) * s.headDim;
                const std::size_t kvBase = (std::size_t(b) * s.kvHeads + h / group) * s.sk * s.headDim;
                double mx = -INFINITY;
                for (int j = 0; j < s.sk; ++j) {
                    double dot = 0;
                    for (int d = 0; d < s.headDim; ++d)
                        dot += double(q[qo + std::size_t(d)]) * k[kvBase + std::size_t(j) * s.headDim + d];
                    dot *= scale;
                    if (!mask.empty())
                        dot += mask[((std::size_t(b) * s.heads + h) * s.sq + i) * s.sk + j];
                    if (causal && j > i + s.sk - s.sq)
                        dot = -INFINITY;
                    p[std::size_t(j)] = dot;
                    mx = std::max(mx, dot);
                }
                double sum = 0;
                for (int j = 0; j < s.sk; ++j)
                    sum += (p[std::size_t(j)] = std::isinf(mx) ? 0.0 : std::exp(p[std::size_t(j)] - mx));
                for (int d = 0; d < s.headDim; ++d) {
                    double acc = 0;
                    for (int j = 0; j < s.sk && sum > 0; ++j)
                        acc += p[std::size_t(j)] / sum * v[kvBase + std::size_t(j) * s.headDim + d];
                    out[qo + std::size_t(d)] = float(acc);
                }
            }
    return out;
}

} // namespace costscope::test
