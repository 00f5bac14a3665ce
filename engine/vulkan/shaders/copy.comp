// SPDX-License-Identifier: MIT
// Strided copy: Transpose, Slice, Narrow, Concat (one dispatch per input), Expand, Tile and Pad.
// p: 0 n, 1 rank, 2 words per element, 3 dst base, 4 src base, 5 pad mode (0 constant, 1 edge, 2 reflect),
// 6-7 pad value words, then per dim (8 + 7d): out dim, dst stride, src stride, start, step, src dim, wrap.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 2) writeonly buffer Dst { uint dst[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int words = p[2];
    int rem = int(i);
    int dOff = p[3];
    int sOff = p[4];
    bool pad = false;
    for (int d = p[1] - 1; d >= 0; --d) {
        int b = 8 + 7 * d;
        // The outermost dim needs no division: what remains is its index (integer division is slow on CPUs).
        int o = d == 0 ? rem : rem % p[b];
        rem = d == 0 ? 0 : rem / p[b];
        dOff += o * p[b + 1];
        int idx = p[b + 3] + o * p[b + 4];
        int n = p[b + 5];
        if (p[b + 6] != 0)
            idx = ((idx % n) + n) % n;
        if (idx < 0 || idx >= n) {
            if (p[5] == 1) {
                idx = clamp(idx, 0, n - 1);
            } else if (p[5] == 2) {
                int period = max(2 * (n - 1), 1);
                idx = abs(idx) % period;
                if (idx >= n)
                    idx = period - idx;
            } else {
                pad = true;
            }
        }
        sOff += idx * p[b + 2];
    }
    for (int w = 0; w < words; ++w)
        dst[dOff * words + w] = pad ? uint(p[6 + w]) : src[sOff * words + w];
}
