// SPDX-License-Identifier: MIT
// Transposed convolution over up to 3 spatial dims (fewer as leading 1s), one output element per invocation:
// it sums the input taps that scatter onto it. Weight layout [C, OC/groups, KD, KH, KW].
// p: 0 n, then as conv.comp shifted by one: 1 N, 2 C, 3 D, 4 H, 5 W, 6 OC, 7 OD, 8 OH, 9 OW, 10 KD, 11 KH,
// 12 KW, 13-15 strides, 16-18 pads, 19-21 dilations, 22 groups, 23 has bias.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) readonly buffer Wt { float w[]; };
layout(set = 0, binding = 3) readonly buffer Bias { float bias[]; };
layout(set = 0, binding = 4) writeonly buffer Out { float o[]; };

// The input index that tap k of output position `o` reads along one dim, or -1 when none.
int source(int o, int k, int stride, int pad, int dil, int n)
{
    int t = o + pad - k * dil;
    if (t < 0 || t % stride != 0 || t / stride >= n)
        return -1;
    return t / stride;
}

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int C = p[2], D = p[3], H = p[4], W = p[5], OC = p[6], OD = p[7], OH = p[8], OW = p[9];
    int KD = p[10], KH = p[11], KW = p[12];
    int G = p[22], Cg = C / G, OCg = OC / G;
    int rem = int(i);
    int ow = rem % OW, oh = (rem / OW) % OH, od = (rem / (OW * OH)) % OD, oc = (rem / (OW * OH * OD)) % OC;
    int b = rem / (OW * OH * OD * OC);
    int g = oc / OCg, ocg = oc % OCg;
    float acc = p[23] != 0 ? bias[oc] : 0.0;
    for (int kd = 0; kd < KD; ++kd) {
        int id = source(od, kd, p[13], p[16], p[19], D);
        if (id < 0)
            continue;
        for (int kh = 0; kh < KH; ++kh) {
            int ih = source(oh, kh, p[14], p[17], p[20], H);
            if (ih < 0)
                continue;
            for (int kw = 0; kw < KW; ++kw) {
                int iw = source(ow, kw, p[15], p[18], p[21], W);
                if (iw < 0)
                    continue;
                for (int c = 0; c < Cg; ++c) {
                    int ic = g * Cg + c;
                    acc += x[(((b * C + ic) * D + id) * H + ih) * W + iw]
                        * w[(((ic * OCg + ocg) * KD + kd) * KH + kh) * KW + kw];
                }
            }
        }
    }
    o[i] = acc;
}
