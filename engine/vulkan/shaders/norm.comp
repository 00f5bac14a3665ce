// SPDX-License-Identifier: MIT
// Normalisations. Modes 0 LayerNorm, 1 RmsNorm, 2 InstanceNorm: one row of `len` contiguous values per
// invocation, scale/bias per element (per row modulo `channels` for InstanceNorm). Mode 3 BatchNorm (inference)
// and mode 4 Lrn: one element per invocation.
// p: 0 threads, 1 len, 2 eps, 3 has scale, 4 has bias, 5 mode, 6 channels, 7 inner (product of dims after C),
// 8 Lrn size, 9 Lrn alpha, 10 Lrn beta, 11 Lrn bias.
// Bindings: 1 x, 2 scale, 3 bias, 4 mean, 5 var, 6 out.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) readonly buffer S { float scale[]; };
layout(set = 0, binding = 3) readonly buffer Bi { float bias[]; };
layout(set = 0, binding = 4) readonly buffer Mn { float mean[]; };
layout(set = 0, binding = 5) readonly buffer Vr { float var[]; };
layout(set = 0, binding = 6) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int mode = p[5], C = p[6], inner = p[7];
    float eps = pf(2);
    if (mode == 3) {
        int c = (int(i) / inner) % C;
        float m = scale[c] / sqrt(var[c] + eps);
        o[i] = x[i] * m + (bias[c] - mean[c] * m);
        return;
    }
    if (mode == 4) {
        int size = p[8];
        int c = (int(i) / inner) % C, pos = int(i) % inner, b = int(i) / (inner * C);
        int before = (size - 1) / 2, after = size - 1 - before;
        float sq = 0.0;
        for (int k = max(0, c - before); k <= min(C - 1, c + after); ++k) {
            float v = x[(b * C + k) * inner + pos];
            sq += v * v;
        }
        o[i] = x[i] / pow(pf(11) + pf(9) / float(size) * sq, pf(10));
        return;
    }
    int n = p[1];
    int base = int(i) * n;
    float mu = 0.0;
    if (mode != 1) {
        for (int k = 0; k < n; ++k)
            mu += x[base + k];
        mu /= float(n);
    }
    float v = 0.0;
    for (int k = 0; k < n; ++k) {
        float d = x[base + k] - mu;
        v += d * d;
    }
    v /= float(n);
    float inv = inversesqrt(v + eps);
    for (int k = 0; k < n; ++k) {
        int q = mode == 2 ? int(i) % C : k;
        float g = p[3] != 0 ? scale[q] : 1.0;
        float bb = p[4] != 0 ? bias[q] : 0.0;
        o[base + k] = (x[base + k] - mu) * inv * g + bb;
    }
}
