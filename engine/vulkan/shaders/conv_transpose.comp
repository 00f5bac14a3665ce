// SPDX-License-Identifier: MIT
// 2-D transposed convolution (1-D as H = 1), one output element per invocation: it sums the input taps that
// scatter onto it. Weight layout [C, OC/groups, KH, KW].
// p: 0 n, 1 N, 2 C, 3 H, 4 W, 5 OC, 6 OH, 7 OW, 8 KH, 9 KW, 10 stride h, 11 stride w, 12 pad h, 13 pad w,
// 14 dilation h, 15 dilation w, 16 groups, 17 has bias.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) readonly buffer Wt { float w[]; };
layout(set = 0, binding = 3) readonly buffer Bias { float bias[]; };
layout(set = 0, binding = 4) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int C = p[2], H = p[3], W = p[4], OC = p[5], OH = p[6], OW = p[7], KH = p[8], KW = p[9];
    int G = p[16], Cg = C / G, OCg = OC / G;
    int ow = int(i) % OW, oh = (int(i) / OW) % OH, oc = (int(i) / (OW * OH)) % OC, b = int(i) / (OW * OH * OC);
    int g = oc / OCg, ocg = oc % OCg;
    float acc = p[17] != 0 ? bias[oc] : 0.0;
    for (int kh = 0; kh < KH; ++kh) {
        int th = oh + p[12] - kh * p[14];
        if (th < 0 || th % p[10] != 0 || th / p[10] >= H)
            continue;
        int ih = th / p[10];
        for (int kw = 0; kw < KW; ++kw) {
            int tw = ow + p[13] - kw * p[15];
            if (tw < 0 || tw % p[11] != 0 || tw / p[11] >= W)
                continue;
            int iw = tw / p[11];
            for (int c = 0; c < Cg; ++c) {
                int ic = g * Cg + c;
                acc += x[((b * C + ic) * H + ih) * W + iw] * w[((ic * OCg + ocg) * KH + kh) * KW + kw];
            }
        }
    }
    o[i] = acc;
}
