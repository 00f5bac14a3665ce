// SPDX-License-Identifier: MIT
// Max/Avg pooling over 2-D windows (1-D as H = 1; GlobalPool as one window over all positions), one output
// element per invocation.
// p: 0 n, 1 H, 2 W, 3 OH, 4 OW, 5 KH, 6 KW, 7 stride h, 8 stride w, 9 pad h, 10 pad w, 11 dilation h,
// 12 dilation w, 13 is max, 14 count_include_pad, 15 end pad h, 16 end pad w.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int H = p[1], W = p[2], OH = p[3], OW = p[4];
    int ow = int(i) % OW, oh = (int(i) / OW) % OH, plane = int(i) / (OW * OH);
    bool isMax = p[13] != 0;
    float acc = isMax ? -1.0 / 0.0 : 0.0;
    int counted = 0;
    for (int kh = 0; kh < p[5]; ++kh) {
        int ih = oh * p[7] - p[9] + kh * p[11];
        for (int kw = 0; kw < p[6]; ++kw) {
            int iw = ow * p[8] - p[10] + kw * p[12];
            bool inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
            bool inPadded = ih < H + p[15] && iw < W + p[16];
            if (inside) {
                float v = x[(plane * H + ih) * W + iw];
                acc = isMax ? max(acc, v) : acc + v;
            }
            if (inside || (p[14] != 0 && inPadded))
                ++counted;
        }
    }
    o[i] = isMax ? acc : (counted > 0 ? acc / float(counted) : 0.0);
}
