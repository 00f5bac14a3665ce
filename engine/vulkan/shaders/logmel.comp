// SPDX-License-Identifier: MIT
// LogMel: out[r, m] = ln(max(sum_b bank[m, b] * power[r, b], 1e-10)), one output element per invocation.
// p: 0 n, 1 mels, 2 bins.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) readonly buffer Bank { float bank[]; };
layout(set = 0, binding = 3) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int mels = p[1], bins = p[2];
    int r = int(i) / mels, m = int(i) % mels;
    float acc = 0.0;
    for (int b = 0; b < bins; ++b)
        acc += bank[m * bins + b] * x[r * bins + b];
    o[i] = log(max(acc, 1e-10));
}
