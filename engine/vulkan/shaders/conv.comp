// SPDX-License-Identifier: MIT
// 2-D convolution (1-D as H = 1) as an implicit GEMM per group: rows = output channels of the group, columns =
// batch x output pixels, K = input channels of the group x kernel taps; the input patch is gathered into shared
// memory tile by tile instead of materialising im2col. 64x64 tiles, 4x4 results per invocation, z = group.
// p: 0 N, 1 C, 2 H, 3 W, 4 OC, 5 OH, 6 OW, 7 KH, 8 KW, 9 stride h, 10 stride w, 11 pad h, 12 pad w,
// 13 dilation h, 14 dilation w, 15 groups, 16 has bias.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Params { int p[]; };
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) readonly buffer Wt { float w[]; };
layout(set = 0, binding = 3) readonly buffer Bias { float bias[]; };
layout(set = 0, binding = 4) writeonly buffer Out { float o[]; };

const int BM = 64;
const int BN = 64;
const int BK = 16;
shared float As[BK][BM];
shared float Bs[BK][BN];

void main()
{
    int N = p[0], C = p[1], H = p[2], W = p[3], OC = p[4], OH = p[5], OW = p[6], KH = p[7], KW = p[8];
    int G = p[15];
    int Cg = C / G, OCg = OC / G;
    int g = int(gl_WorkGroupID.z);
    int M = OCg, NC = N * OH * OW, K = Cg * KH * KW;
    int t = int(gl_LocalInvocationIndex);
    int tx = t % 16, ty = t / 16;
    int row0 = int(gl_WorkGroupID.y) * BM, col0 = int(gl_WorkGroupID.x) * BN;

    float acc[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            acc[i][j] = 0.0;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int r = 0; r < 4; ++r) {
            int idx = t + 256 * r;
            int m = idx / BK, k = idx % BK;
            int gm = row0 + m, gk = k0 + k;
            As[k][m] = (gm < M && gk < K) ? w[(g * OCg + gm) * K + gk] : 0.0;
            int n = idx % BN, kb = idx / BN;
            int gn = col0 + n, gkb = k0 + kb;
            float v = 0.0;
            if (gn < NC && gkb < K) {
                int ic = gkb / (KH * KW), kh = (gkb / KW) % KH, kw = gkb % KW;
                int b = gn / (OH * OW), oh = (gn / OW) % OH, ow = gn % OW;
                int ih = oh * p[9] - p[11] + kh * p[13];
                int iw = ow * p[10] - p[12] + kw * p[14];
                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                    v = x[((b * C + g * Cg + ic) * H + ih) * W + iw];
            }
            Bs[kb][n] = v;
        }
        barrier();
        for (int k = 0; k < BK; ++k) {
            float av[4], bv[4];
            for (int i = 0; i < 4; ++i)
                av[i] = As[k][ty + 16 * i];
            for (int j = 0; j < 4; ++j)
                bv[j] = Bs[k][tx + 16 * j];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j)
                    acc[i][j] = fma(av[i], bv[j], acc[i][j]);
        }
        barrier();
    }
    for (int i = 0; i < 4; ++i) {
        int m = row0 + ty + 16 * i;
        if (m >= M)
            continue;
        int oc = g * OCg + m;
        for (int j = 0; j < 4; ++j) {
            int n = col0 + tx + 16 * j;
            if (n >= NC)
                continue;
            int b = n / (OH * OW), pix = n % (OH * OW);
            o[(b * OC + oc) * OH * OW + pix] = acc[i][j] + (p[16] != 0 ? bias[oc] : 0.0);
        }
    }
}
