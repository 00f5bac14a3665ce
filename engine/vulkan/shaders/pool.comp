// SPDX-License-Identifier: MIT
// Max/Avg pooling over windows of up to 3 spatial dims (fewer as leading 1s; GlobalPool as one window over all
// positions), one output element per invocation.
// p: 0 n, 1 D, 2 H, 3 W, 4 OD, 5 OH, 6 OW, 7 KD, 8 KH, 9 KW, 10-12 strides, 13-15 pads, 16-18 dilations,
// 19 is max, 20 count_include_pad, 21-23 end pads.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int D = p[1], H = p[2], W = p[3], OD = p[4], OH = p[5], OW = p[6];
    int rem = int(i);
    int ow = rem % OW, oh = (rem / OW) % OH, od = (rem / (OW * OH)) % OD, plane = rem / (OW * OH * OD);
    bool isMax = p[19] != 0;
    float acc = isMax ? -1.0 / 0.0 : 0.0;
    int counted = 0;
    for (int kd = 0; kd < p[7]; ++kd) {
        int id = od * p[10] - p[13] + kd * p[16];
        for (int kh = 0; kh < p[8]; ++kh) {
            int ih = oh * p[11] - p[14] + kh * p[17];
            for (int kw = 0; kw < p[9]; ++kw) {
                int iw = ow * p[12] - p[15] + kw * p[18];
                bool inside = id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W;
                bool inPadded = id < D + p[21] && ih < H + p[22] && iw < W + p[23];
                if (inside) {
                    float v = x[((plane * D + id) * H + ih) * W + iw];
                    acc = isMax ? max(acc, v) : acc + v;
                }
                if (inside || (p[20] != 0 && inPadded))
                    ++counted;
            }
        }
    }
    o[i] = isMax ? acc : (counted > 0 ? acc / float(counted) : 0.0);
}
