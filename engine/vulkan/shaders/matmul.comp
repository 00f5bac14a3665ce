// SPDX-License-Identifier: MIT
// Batched C = act(alpha * op(A) op(B) + beta * Cin) with 128x128 output tiles, one workgroup per tile, z = batch.
// Each invocation holds 8x8 results as vec4s: rows ty*4.. and 64+ty*4.., columns tx*4.. and 64+tx*4.., so that
// every shared-memory read is a 16-byte vector and a warp's reads do not conflict. k advances in steps of 8
// through two shared buffers: the next step's operands are loaded into registers while the current step is
// multiplied, and one barrier per step suffices. Every loop over registers is unrolled: an accumulator array the
// compiler cannot keep in registers would spill to memory.
// p: 0 M, 1 N, 2 K, 3 transA, 4 transB, 5 lda, 6 ldb, 7 alpha, 8 beta, 9 has Cin, 10 Cin row stride,
// 11 Cin column stride, 12 activation (-1 none), 13 batch rank, 14 output row stride (0: N), 15 column offset
// of this piece in the output and Cin (a wide B split in pieces), then per batch dim (16 + 4d): dim, A stride,
// B stride, Cin stride.
#version 450
#extension GL_EXT_control_flow_attributes : require
#include "act.glsl"
layout(local_size_x = 256) in;
// 1: the operand is read four floats at a time along its contiguous dim (the plan sets it when that dim, the
// leading dimension and the batch strides are multiples of 4, so that every vector is whole and aligned).
layout(constant_id = 0) const int kVecA = 0;
layout(constant_id = 1) const int kVecB = 0;
layout(set = 0, binding = 0) restrict readonly buffer Params { int p[]; };
layout(set = 0, binding = 1) restrict readonly buffer A { float a[]; };
layout(set = 0, binding = 1) restrict readonly buffer A4 { vec4 a4[]; };
layout(set = 0, binding = 2) restrict readonly buffer B { float b[]; };
layout(set = 0, binding = 2) restrict readonly buffer B4 { vec4 b4[]; };
layout(set = 0, binding = 3) restrict readonly buffer Cin { float cin[]; };
layout(set = 0, binding = 4) restrict writeonly buffer Out { float o[]; };

const int BM = 128;
const int BN = 128;
const int BK = 8;
// [buffer][k][row / 4] and [buffer][k][column / 4]
shared vec4 As[2][BK][BM / 4];
shared vec4 Bs[2][BK][BN / 4];

int M, N, K, lda, ldb, aOff, bOff, row0, col0, t;
bool ta, tb;

// The four floats of A that this invocation brings in for the step starting at k0: along k for a row-major A
// (row t/2, k (t%2)*4..), along m for a transposed one (k t/32, rows (t%32)*4..).
vec4 loadA(int k0)
{
    vec4 v = vec4(0.0);
    if (!ta) {
        int m = row0 + t / 2, k = k0 + (t % 2) * 4;
        if (kVecA != 0)
            return (m < M && k < K) ? a4[(aOff + m * lda + k) / 4] : v;
        [[unroll]] for (int c = 0; c < 4; ++c)
            v[c] = (m < M && k + c < K) ? a[aOff + m * lda + k + c] : 0.0;
        return v;
    }
    int k = k0 + t / 32, m = row0 + (t % 32) * 4;
    if (kVecA != 0)
        return (m < M && k < K) ? a4[(aOff + k * lda + m) / 4] : v;
    [[unroll]] for (int c = 0; c < 4; ++c)
        v[c] = (m + c < M && k < K) ? a[aOff + k * lda + m + c] : 0.0;
    return v;
}

void storeA(int s, vec4 v)
{
    if (!ta) {
        int m = t / 2, k = (t % 2) * 4;
        [[unroll]] for (int c = 0; c < 4; ++c)
            As[s][k + c][m / 4][m % 4] = v[c];
    } else {
        As[s][t / 32][t % 32] = v;
    }
}

// B likewise: along n for a row-major B (k t/32, columns (t%32)*4..), along k for a transposed one.
vec4 loadB(int k0)
{
    vec4 v = vec4(0.0);
    if (!tb) {
        int k = k0 + t / 32, n = col0 + (t % 32) * 4;
        if (kVecB != 0)
            return (n < N && k < K) ? b4[(bOff + k * ldb + n) / 4] : v;
        [[unroll]] for (int c = 0; c < 4; ++c)
            v[c] = (n + c < N && k < K) ? b[bOff + k * ldb + n + c] : 0.0;
        return v;
    }
    int n = col0 + t / 2, k = k0 + (t % 2) * 4;
    if (kVecB != 0)
        return (n < N && k < K) ? b4[(bOff + n * ldb + k) / 4] : v;
    [[unroll]] for (int c = 0; c < 4; ++c)
        v[c] = (n < N && k + c < K) ? b[bOff + n * ldb + k + c] : 0.0;
    return v;
}

void storeB(int s, vec4 v)
{
    if (!tb) {
        Bs[s][t / 32][t % 32] = v;
    } else {
        int n = t / 2, k = (t % 2) * 4;
        [[unroll]] for (int c = 0; c < 4; ++c)
            Bs[s][k + c][n / 4][n % 4] = v[c];
    }
}

int cOff, tx;

// One result: alpha, beta * Cin and the activation applied.
void storeOne(int m, int n, float acc)
{
    if (n >= N)
        return;
    float v = intBitsToFloat(p[7]) * acc;
    if (p[9] != 0)
        v += intBitsToFloat(p[8]) * cin[cOff + m * p[10] + (n + p[15]) * p[11]];
    if (p[12] >= 0)
        v = activate(p[12], v, 0.0, 0.0, 0.0, 0.0);
    const int ldo = p[14] != 0 ? p[14] : N;
    o[int(gl_WorkGroupID.z) * M * ldo + m * ldo + n + p[15]] = v;
}

// Row m of the tile's results: columns col0+tx*4.. from lo, col0+64+tx*4.. from hi (components by name: an
// indexed vector may be kept in addressable memory).
void storeRow(int m, vec4 lo, vec4 hi)
{
    if (m >= M)
        return;
    const int n0 = col0 + tx * 4, n1 = n0 + 64;
    storeOne(m, n0, lo.x);
    storeOne(m, n0 + 1, lo.y);
    storeOne(m, n0 + 2, lo.z);
    storeOne(m, n0 + 3, lo.w);
    storeOne(m, n1, hi.x);
    storeOne(m, n1 + 1, hi.y);
    storeOne(m, n1 + 2, hi.z);
    storeOne(m, n1 + 3, hi.w);
}

void main()
{
    M = p[0];
    N = p[1];
    K = p[2];
    ta = p[3] != 0;
    tb = p[4] != 0;
    lda = p[5];
    ldb = p[6];
    t = int(gl_LocalInvocationIndex);
    tx = t % 16;
    int ty = t / 16;
    row0 = int(gl_WorkGroupID.y) * BM;
    col0 = int(gl_WorkGroupID.x) * BN;

    int rem = int(gl_WorkGroupID.z);
    aOff = 0;
    bOff = 0;
    cOff = 0;
    for (int d = p[13] - 1; d >= 0; --d) {
        int base = 16 + 4 * d;
        int idx = rem % p[base];
        rem /= p[base];
        aOff += idx * p[base + 1];
        bOff += idx * p[base + 2];
        cOff += idx * p[base + 3];
    }

    // Rows ty*4+r (c<r>...) and 64+ty*4+r (d<r>...), columns tx*4.. (...0) and 64+tx*4.. (...1). Named variables,
    // not an array: a driver may keep an array in addressable (local) memory, and then every FMA waits on it.
    vec4 c00 = vec4(0.0), c01 = vec4(0.0), c10 = vec4(0.0), c11 = vec4(0.0);
    vec4 c20 = vec4(0.0), c21 = vec4(0.0), c30 = vec4(0.0), c31 = vec4(0.0);
    vec4 d00 = vec4(0.0), d01 = vec4(0.0), d10 = vec4(0.0), d11 = vec4(0.0);
    vec4 d20 = vec4(0.0), d21 = vec4(0.0), d30 = vec4(0.0), d31 = vec4(0.0);

    const int steps = (K + BK - 1) / BK;
    vec4 ra = loadA(0), rb = loadB(0);
    storeA(0, ra);
    storeB(0, rb);
    memoryBarrierShared();
    barrier();
    for (int s = 0; s < steps; ++s) {
        const int cur = s & 1;
        const bool more = s + 1 < steps;
        if (more) {
            ra = loadA((s + 1) * BK);
            rb = loadB((s + 1) * BK);
        }
        [[unroll]] for (int k = 0; k < BK; ++k) {
            vec4 a0 = As[cur][k][ty], a1 = As[cur][k][ty + 16];
            vec4 b0 = Bs[cur][k][tx], b1 = Bs[cur][k][tx + 16];
            c00 = fma(a0.xxxx, b0, c00);
            c01 = fma(a0.xxxx, b1, c01);
            c10 = fma(a0.yyyy, b0, c10);
            c11 = fma(a0.yyyy, b1, c11);
            c20 = fma(a0.zzzz, b0, c20);
            c21 = fma(a0.zzzz, b1, c21);
            c30 = fma(a0.wwww, b0, c30);
            c31 = fma(a0.wwww, b1, c31);
            d00 = fma(a1.xxxx, b0, d00);
            d01 = fma(a1.xxxx, b1, d01);
            d10 = fma(a1.yyyy, b0, d10);
            d11 = fma(a1.yyyy, b1, d11);
            d20 = fma(a1.zzzz, b0, d20);
            d21 = fma(a1.zzzz, b1, d21);
            d30 = fma(a1.wwww, b0, d30);
            d31 = fma(a1.wwww, b1, d31);
        }
        if (more) {
            storeA(cur ^ 1, ra);
            storeB(cur ^ 1, rb);
        }
        memoryBarrierShared();
        barrier();
    }

    storeRow(row0 + ty * 4, c00, c01);
    storeRow(row0 + ty * 4 + 1, c10, c11);
    storeRow(row0 + ty * 4 + 2, c20, c21);
    storeRow(row0 + ty * 4 + 3, c30, c31);
    storeRow(row0 + 64 + ty * 4, d00, d01);
    storeRow(row0 + 64 + ty * 4 + 1, d10, d11);
    storeRow(row0 + 64 + ty * 4 + 2, d20, d21);
    storeRow(row0 + 64 + ty * 4 + 3, d30, d31);
}
