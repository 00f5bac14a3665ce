// SPDX-License-Identifier: MIT
// Gather (mode 0) and GatherElements (mode 1); negative indices count from the end, indices out of range give 0.
// p: 0 n, 1 mode, 2 words per element, 3 64-bit indices, 4 outer, 5 index count, 6 inner, 7 axis dim,
// GatherElements: 8 rank, 9 axis, per dim (10 + 2d): index dim, input stride.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { uint x[]; };
layout(set = 0, binding = 2) readonly buffer I32 { int idx32[]; };
layout(set = 0, binding = 2) readonly buffer I64 { int64_t idx64[]; };
layout(set = 0, binding = 3) writeonly buffer Out { uint o[]; };

int indexAt(int j)
{
    return p[3] != 0 ? int(idx64[j]) : idx32[j];
}

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int words = p[2], dim = p[7];
    int src = -1;
    if (p[1] == 0) {
        int inner = p[6], count = p[5];
        int in_ = int(i) % inner, j = (int(i) / inner) % count, outer = int(i) / (inner * count);
        int k = indexAt(j);
        if (k < 0)
            k += dim;
        if (k >= 0 && k < dim)
            src = (outer * dim + k) * inner + in_;
    } else {
        int rem = int(i), off = 0;
        bool ok = true;
        for (int d = p[8] - 1; d >= 0; --d) {
            int n = p[10 + 2 * d];
            int k = rem % n;
            rem /= n;
            if (d == p[9]) {
                k = indexAt(int(i));
                if (k < 0)
                    k += dim;
                ok = ok && k >= 0 && k < dim;
            }
            off += k * p[11 + 2 * d];
        }
        if (ok)
            src = off;
    }
    for (int w = 0; w < words; ++w)
        o[int(i) * words + w] = src >= 0 ? x[src * words + w] : 0u;
}
