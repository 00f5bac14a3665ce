// SPDX-License-Identifier: MIT
// Convolution over up to 3 spatial dims (fewer as leading 1s) as an implicit GEMM per group: rows = output
// channels of the group, columns = batch x output positions, K = input channels of the group x kernel taps; the
// input patch is gathered into shared memory tile by tile instead of materialising im2col. 64x64 tiles, 4x4
// results per invocation, z = group.
// p: 0 N, 1 C, 2 D, 3 H, 4 W, 5 OC, 6 OD, 7 OH, 8 OW, 9 KD, 10 KH, 11 KW, 12-14 strides, 15-17 pads,
// 18-20 dilations, 21 groups, 22 has bias.
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

int M, NC, outs, g, OCg, col0, tx;

void storeOne(int oc, int n, float v)
{
    if (n >= NC)
        return;
    int b = n / outs, pos = n % outs;
    o[(b * p[5] + oc) * outs + pos] = v + (p[22] != 0 ? bias[oc] : 0.0);
}

// Row m of the group's output channels: columns col0+tx+16j from component j.
void storeRow(int m, vec4 v)
{
    if (m >= M)
        return;
    int oc = g * OCg + m;
    storeOne(oc, col0 + tx, v.x);
    storeOne(oc, col0 + tx + 16, v.y);
    storeOne(oc, col0 + tx + 32, v.z);
    storeOne(oc, col0 + tx + 48, v.w);
}

void main()
{
    int N = p[0], C = p[1], D = p[2], H = p[3], W = p[4], OC = p[5], OD = p[6], OH = p[7], OW = p[8];
    int KD = p[9], KH = p[10], KW = p[11];
    int G = p[21];
    int Cg = C / G;
    OCg = OC / G;
    g = int(gl_WorkGroupID.z);
    int taps = KD * KH * KW;
    outs = OD * OH * OW;
    M = OCg;
    NC = N * outs;
    int K = Cg * taps;
    int t = int(gl_LocalInvocationIndex);
    tx = t % 16;
    int ty = t / 16;
    int row0 = int(gl_WorkGroupID.y) * BM;
    col0 = int(gl_WorkGroupID.x) * BN;

    // Results of rows ty+16i (r<i>), columns tx+16j (component j). Named vectors, not an array: a driver may keep
    // an array in addressable (local) memory, and then every FMA waits on it.
    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0), r3 = vec4(0.0);

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
                int ic = gkb / taps, tap = gkb % taps;
                int kd = tap / (KH * KW), kh = (tap / KW) % KH, kw = tap % KW;
                int b = gn / outs, pos = gn % outs;
                int od = pos / (OH * OW), oh = (pos / OW) % OH, ow = pos % OW;
                int id = od * p[12] - p[15] + kd * p[18];
                int ih = oh * p[13] - p[16] + kh * p[19];
                int iw = ow * p[14] - p[17] + kw * p[20];
                if (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W)
                    v = x[(((b * C + g * Cg + ic) * D + id) * H + ih) * W + iw];
            }
            Bs[kb][n] = v;
        }
        barrier();
        for (int k = 0; k < BK; ++k) {
            vec4 av = vec4(As[k][ty], As[k][ty + 16], As[k][ty + 32], As[k][ty + 48]);
            vec4 bv = vec4(Bs[k][tx], Bs[k][tx + 16], Bs[k][tx + 32], Bs[k][tx + 48]);
            r0 = fma(av.xxxx, bv, r0);
            r1 = fma(av.yyyy, bv, r1);
            r2 = fma(av.zzzz, bv, r2);
            r3 = fma(av.wwww, bv, r3);
        }
        barrier();
    }
    storeRow(row0 + ty, r0);
    storeRow(row0 + ty + 16, r1);
    storeRow(row0 + ty + 32, r2);
    storeRow(row0 + ty + 48, r3);
}
