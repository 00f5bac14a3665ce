// SPDX-License-Identifier: MIT
// Softmax / LogSoftmax along one axis, one row per invocation. p: 0 rows, 1 length, 2 inner stride, 3 log.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };

void main()
{
    uint r = gid();
    if (r >= uint(p[0]))
        return;
    int n = p[1], inner = p[2];
    int base = (int(r) / inner) * n * inner + int(r) % inner;
    float mx = -1.0 / 0.0;
    for (int k = 0; k < n; ++k)
        mx = max(mx, x[base + k * inner]);
    float sum = 0.0;
    for (int k = 0; k < n; ++k)
        sum += exp(x[base + k * inner] - mx);
    float logSum = log(sum);
    for (int k = 0; k < n; ++k) {
        float v = x[base + k * inner] - mx;
        o[base + k * inner] = p[3] != 0 ? v - logSum : exp(v) / sum;
    }
}
