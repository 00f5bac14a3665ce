// SPDX-License-Identifier: MIT
// Batched C = act(alpha * op(A) op(B) + beta * Cin) with 128x128 output tiles in shared memory, 8x8 results
// per invocation. One workgroup per tile, z = batch.
// p: 0 M, 1 N, 2 K, 3 transA, 4 transB, 5 lda, 6 ldb, 7 alpha, 8 beta, 9 has Cin, 10 Cin row stride,
// 11 Cin column stride, 12 activation (-1 none), 13 batch rank, 14 output row stride (0: N), 15 column offset
// of this piece in the output and Cin (a wide B split in pieces), then per batch dim (16 + 4d): dim, A stride,
// B stride, Cin stride.
#version 450
#include "act.glsl"
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Params { int p[]; };
layout(set = 0, binding = 1) readonly buffer A { float a[]; };
layout(set = 0, binding = 2) readonly buffer B { float b[]; };
layout(set = 0, binding = 3) readonly buffer Cin { float cin[]; };
layout(set = 0, binding = 4) writeonly buffer Out { float o[]; };

const int BM = 128;
const int BN = 128;
const int BK = 8;
shared float As[BK][BM];
shared float Bs[BK][BN];

void main()
{
    int M = p[0], N = p[1], K = p[2];
    bool ta = p[3] != 0, tb = p[4] != 0;
    int lda = p[5], ldb = p[6];
    int t = int(gl_LocalInvocationIndex);
    int tx = t % 16, ty = t / 16;
    int row0 = int(gl_WorkGroupID.y) * BM, col0 = int(gl_WorkGroupID.x) * BN;

    int rem = int(gl_WorkGroupID.z);
    int aOff = 0, bOff = 0, cOff = 0;
    for (int d = p[13] - 1; d >= 0; --d) {
        int base = 16 + 4 * d;
        int idx = rem % p[base];
        rem /= p[base];
        aOff += idx * p[base + 1];
        bOff += idx * p[base + 2];
        cOff += idx * p[base + 3];
    }
    int ldo = p[14] != 0 ? p[14] : N;
    int oOff = int(gl_WorkGroupID.z) * M * ldo;

    float acc[8][8];
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int r = 0; r < 4; ++r) {
            int idx = t + 256 * r;
            int m = ta ? idx % BM : idx / BK;
            int k = ta ? idx / BM : idx % BK;
            int gm = row0 + m, gk = k0 + k;
            As[k][m] = (gm < M && gk < K) ? a[aOff + (ta ? gk * lda + gm : gm * lda + gk)] : 0.0;
            int n = tb ? idx / BK : idx % BN;
            int kb = tb ? idx % BK : idx / BN;
            int gn = col0 + n, gkb = k0 + kb;
            Bs[kb][n] = (gn < N && gkb < K) ? b[bOff + (tb ? gn * ldb + gkb : gkb * ldb + gn)] : 0.0;
        }
        barrier();
        for (int k = 0; k < BK; ++k) {
            float av[8], bv[8];
            for (int i = 0; i < 8; ++i)
                av[i] = As[k][ty + 16 * i];
            for (int j = 0; j < 8; ++j)
                bv[j] = Bs[k][tx + 16 * j];
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j)
                    acc[i][j] = fma(av[i], bv[j], acc[i][j]);
        }
        barrier();
    }

    float alpha = intBitsToFloat(p[7]), beta = intBitsToFloat(p[8]);
    for (int i = 0; i < 8; ++i) {
        int m = row0 + ty + 16 * i;
        if (m >= M)
            continue;
        for (int j = 0; j < 8; ++j) {
            int n = col0 + tx + 16 * j;
            if (n >= N)
                continue;
            int on = n + p[15];
            float v = alpha * acc[i][j];
            if (p[9] != 0)
                v += beta * cin[cOff + m * p[10] + on * p[11]];
            if (p[12] >= 0)
                v = activate(p[12], v, 0.0, 0.0, 0.0, 0.0);
            o[oOff + m * ldo + on] = v;
        }
    }
}
