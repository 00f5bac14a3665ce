// SPDX-License-Identifier: MIT
// Reduce (Sum, Mean, Max, Min, Prod) over any set of axes, one output element per invocation.
// p: 0 n out, 1 rank, 2 kind (0 Sum, 1 Mean, 2 Max, 3 Min, 4 Prod), 3 reduced count, 4 reduced rank,
// per dim (8 + 2d, d < 8): iteration dim (1 where reduced), input stride; per reduced dim (24 + 2j): dim, stride.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int rem = int(i), base = 0;
    for (int d = p[1] - 1; d >= 0; --d) {
        int n = p[8 + 2 * d];
        base += (rem % n) * p[9 + 2 * d];
        rem /= n;
    }
    int kind = p[2], count = p[3];
    float acc = kind == 2 ? -1.0 / 0.0 : kind == 3 ? 1.0 / 0.0 : kind == 4 ? 1.0 : 0.0;
    for (int r = 0; r < count; ++r) {
        int rr = r, off = base;
        for (int j = p[4] - 1; j >= 0; --j) {
            int n = p[24 + 2 * j];
            off += (rr % n) * p[25 + 2 * j];
            rr /= n;
        }
        float v = x[off];
        acc = kind <= 1 ? acc + v : kind == 2 ? max(acc, v) : kind == 3 ? min(acc, v) : acc * v;
    }
    o[i] = (kind == 1 && count > 0) ? acc / float(count) : acc;
}
