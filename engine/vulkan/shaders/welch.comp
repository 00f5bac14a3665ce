// SPDX-License-Identifier: MIT
// WelchPeaks: mean power over each batch item's segments for the one-sided bins, then the k strongest bins
// (ties: lower bin first) by k selection passes, one batch item per invocation. Power goes to scratch.
// p: 0 batch, 1 segments, 2 n, 3 bins, 4 k, 5 planar.
// Bindings: 1 spectrum, 2 scratch power [batch, bins], 3 out [batch, 2k].
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) buffer Pw { float pw[]; };
layout(set = 0, binding = 3) writeonly buffer Out { float o[]; };

void main()
{
    uint b = gid();
    if (b >= uint(p[0]))
        return;
    int segs = p[1], n = p[2], bins = p[3], K = p[4];
    bool planar = p[5] != 0;
    int pb = int(b) * bins;
    for (int i = 0; i < bins; ++i) {
        float acc = 0.0;
        for (int s = 0; s < segs; ++s) {
            int row = int(b) * segs + s;
            float re = planar ? x[row * 2 * n + i] : x[2 * (row * n + i)];
            float im = planar ? x[row * 2 * n + n + i] : x[2 * (row * n + i) + 1];
            acc += (re * re + im * im) / float(segs);
        }
        pw[pb + i] = acc;
    }
    for (int j = 0; j < K; ++j) {
        int best = -1;
        float bestP = -1.0;
        for (int i = 0; i < bins; ++i)
            if (pw[pb + i] > bestP) {
                bestP = pw[pb + i];
                best = i;
            }
        bool have = best >= 0;
        o[int(b) * 2 * K + j] = have ? float(best) : 0.0;
        o[int(b) * 2 * K + K + j] = have ? bestP : 0.0;
        if (have)
            pw[pb + best] = -2.0;
    }
}
