// SPDX-License-Identifier: MIT
// RLX Attention, one (batch, head, query) row per invocation: a pass for the softmax maximum and sum, then
// a pass accumulating p * v straight into the output row (owned by this invocation).
// p: 0 rows, 1 heads, 2 head dim, 3 Sq, 4 Sk, 5 scale, 6 softcap (0 none), 7 mask (0 none, 1 causal,
// 2 sliding window, 3 Bool input, 4 additive F32 input), 8 window, 9-12 mask strides (batch, head, query, key),
// 13-15 q's (and the output's) element strides (batch, head, row), 16-18 k's and v's (batch, KV head, row),
// 19 query heads per KV head. The strides cover heads packed in the last dim and per head ([..., H, S, D]), and
// grouped KV heads (engine/attention_layout.h).
// Bindings: 1 q, 2 k, 3 v, 4 mask, 5 out.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer Q { float q[]; };
layout(set = 0, binding = 2) readonly buffer K { float k[]; };
layout(set = 0, binding = 3) readonly buffer V { float v[]; };
layout(set = 0, binding = 4) readonly buffer Mf { float maskF[]; };
layout(set = 0, binding = 4) readonly buffer Mu { uint maskU[]; };
layout(set = 0, binding = 5) buffer Out { float o[]; };

int H, D, SQ, SK, G;

int qOffset(int b, int h, int i)
{
    return b * p[13] + h * p[14] + i * p[15];
}

int kvOffset(int b, int h, int j)
{
    return b * p[16] + (h / G) * p[17] + j * p[18];
}

float score(int b, int h, int i, int j)
{
    float s = 0.0;
    int qo = qOffset(b, h, i), ko = kvOffset(b, h, j);
    for (int d = 0; d < D; ++d)
        s += q[qo + d] * k[ko + d];
    s *= pf(5);
    float cap = pf(6);
    if (cap > 0.0)
        s = cap * tanh(clamp(s / cap, -15.0, 15.0));
    int mask = p[7];
    int last = i + SK - SQ;
    if ((mask == 1 || mask == 2) && j > last)
        return -1.0 / 0.0;
    if (mask == 2 && j <= last - p[8])
        return -1.0 / 0.0;
    if (mask >= 3) {
        int off = b * p[9] + h * p[10] + i * p[11] + j * p[12];
        if (mask == 3)
            return maskU[off] != 0u ? s : -1.0 / 0.0;
        s += maskF[off];
    }
    return s;
}

void main()
{
    uint r = gid();
    if (r >= uint(p[0]))
        return;
    H = p[1];
    D = p[2];
    SQ = p[3];
    SK = p[4];
    G = p[19];
    int i = int(r) % SQ, h = (int(r) / SQ) % H, b = int(r) / (SQ * H);
    float mx = -1.0 / 0.0;
    for (int j = 0; j < SK; ++j)
        mx = max(mx, score(b, h, i, j));
    float sum = 0.0;
    if (!isinf(mx))
        for (int j = 0; j < SK; ++j)
            sum += exp(score(b, h, i, j) - mx);
    int oo = qOffset(b, h, i);
    for (int d = 0; d < D; ++d)
        o[oo + d] = 0.0;
    if (sum <= 0.0)
        return;
    for (int j = 0; j < SK; ++j) {
        float w = exp(score(b, h, i, j) - mx) / sum;
        int vo = kvOffset(b, h, j);
        for (int d = 0; d < D; ++d)
            o[oo + d] += w * v[vo + d];
    }
}
