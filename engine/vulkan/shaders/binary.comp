// SPDX-License-Identifier: MIT
// Broadcasting element-wise ops on two or three operands.
// p: 0 n, 1 rank, 2 mode, 3 op, then per dim (4 + 4d): out dim, stride a, stride b, stride c.
// Modes: 0 F32 Binary, 1 F32 Compare, 2 I64 Binary, 3 I64 Compare, 4 I32 Binary, 5 I32/Bool Compare,
// 6 Where on 32-bit values, 7 Where on 64-bit values (a is the Bool condition), 8 F64 Binary, 9 F64 Compare.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
// Mode and op as specialization constants where the plan sets them (-100: read them from p[2], p[3]).
layout(constant_id = 0) const int kMode = -100;
layout(constant_id = 1) const int kOp = -100;
// 4: F32 Binary (mode 0) four outputs to an invocation, read as 16-byte vectors from operands whose innermost
// stride is 1 and splatted from those where it is 0 (the plan sets it when the innermost dim and the strides of the
// contiguous operands are multiples of 4). A GPU reaches its memory bandwidth only with that many bytes in flight.
layout(constant_id = 2) const int kVec = 1;
layout(set = 0, binding = 1) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer A4 { vec4 a4[]; };
layout(set = 0, binding = 1) readonly buffer A64 { int64_t a64[]; };
layout(set = 0, binding = 1) readonly buffer AI { int ai[]; };
layout(set = 0, binding = 1) readonly buffer AD { double ad[]; };
layout(set = 0, binding = 2) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) readonly buffer B4 { vec4 b4[]; };
layout(set = 0, binding = 2) readonly buffer B64 { int64_t b64[]; };
layout(set = 0, binding = 2) readonly buffer BI { int bi[]; };
layout(set = 0, binding = 2) readonly buffer BD { double bd[]; };
layout(set = 0, binding = 3) readonly buffer C64 { int64_t c64[]; };
layout(set = 0, binding = 3) readonly buffer CI { int ci[]; };
layout(set = 0, binding = 4) writeonly buffer O { float o[]; };
layout(set = 0, binding = 4) writeonly buffer O4 { vec4 o4[]; };
layout(set = 0, binding = 4) writeonly buffer O64 { int64_t o64[]; };
layout(set = 0, binding = 4) writeonly buffer OI { int oi[]; };
layout(set = 0, binding = 4) writeonly buffer OD { double od[]; };

float binaryF(int op, float x, float y)
{
    switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return x / y;
    case 4: {
        // pow of a negative base is defined for integer exponents (std::pow's rule).
        if (x < 0.0 && y == trunc(y)) {
            float r = pow(-x, y);
            return mod(y, 2.0) == 0.0 ? r : -r;
        }
        return pow(x, y);
    }
    case 5: return max(x, y);
    case 6: return min(x, y);
    case 7: return x - y * trunc(x / y);
    case 8: return x < 0.0 ? x * y : x;
    }
    return x;
}

// GLSL has no double pow: integer exponents multiply out exactly, others go through float.
double powD(double x, double y)
{
    if (y == trunc(y) && abs(y) <= 64.0) {
        double r = 1.0;
        for (int k = 0; k < int(abs(y)); ++k)
            r *= x;
        return y < 0.0 ? 1.0 / r : r;
    }
    return double(pow(float(x), float(y)));
}

double binaryD(int op, double x, double y)
{
    switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return x / y;
    case 4: return powD(x, y);
    case 5: return max(x, y);
    case 6: return min(x, y);
    case 7: return x - y * trunc(x / y);
    case 8: return x < 0.0 ? x * y : x;
    }
    return x;
}

bool compareD(int op, double x, double y)
{
    switch (op) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    case 5: return x >= y;
    }
    return false;
}

int64_t binaryI(int op, int64_t x, int64_t y)
{
    switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return y == 0 ? int64_t(0) : x / y;
    case 4: {
        int64_t r = 1;
        for (int64_t k = 0; k < y; ++k)
            r *= x;
        return r;
    }
    case 5: return max(x, y);
    case 6: return min(x, y);
    case 7: {
        // The remainder from magnitudes: `%` on negative operands is left to the implementation (GLSL), and the
        // NVIDIA driver's differed from lavapipe's (test_mod_mixed_sign_int64 failed on an H200 only).
        if (y == 0)
            return 0;
        const int64_t ax = abs(x), ay = abs(y);
        int64_t r = ax - (ax / ay) * ay;
        r = x < 0 ? -r : r;
        return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
    }
    case 8: return x < 0 ? x * y : x;
    }
    return x;
}

bool compareF(int op, float x, float y)
{
    switch (op) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    case 5: return x >= y;
    }
    return false;
}

bool compareI(int op, int64_t x, int64_t y)
{
    switch (op) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    case 5: return x >= y;
    }
    return false;
}

// Element offsets of output element `i` in operands a, b and c.
ivec3 operandOffsets(uint i)
{
    int rem = int(i);
    ivec3 off = ivec3(0);
    for (int d = p[1] - 1; d >= 0; --d) {
        int base = 4 + 4 * d;
        int idx = d == 0 ? rem : rem % p[base];
        rem = d == 0 ? 0 : rem / p[base];
        off += idx * ivec3(p[base + 1], p[base + 2], p[base + 3]);
    }
    return off;
}

void main()
{
    uint i = gid();
    int op = kOp != -100 ? kOp : p[3];
    if (kVec == 4) {
        if (4u * i >= uint(p[0]))
            return;
        ivec3 off = operandOffsets(4u * i);
        int inner = 4 + 4 * (p[1] - 1);
        vec4 x = p[inner + 1] == 1 ? a4[off.x / 4] : vec4(a[off.x]);
        vec4 y = p[inner + 2] == 1 ? b4[off.y / 4] : vec4(b[off.y]);
        o4[i] = vec4(binaryF(op, x.x, y.x), binaryF(op, x.y, y.y), binaryF(op, x.z, y.z), binaryF(op, x.w, y.w));
        return;
    }
    if (i >= uint(p[0]))
        return;
    ivec3 off = operandOffsets(i);
    int ia = off.x, ib = off.y, ic = off.z;
    int mode = kMode != -100 ? kMode : p[2];
    switch (mode) {
    case 0: o[i] = binaryF(op, a[ia], b[ib]); break;
    case 1: oi[i] = compareF(op, a[ia], b[ib]) ? 1 : 0; break;
    case 2: o64[i] = binaryI(op, a64[ia], b64[ib]); break;
    case 3: oi[i] = compareI(op, a64[ia], b64[ib]) ? 1 : 0; break;
    case 4: oi[i] = int(binaryI(op, int64_t(ai[ia]), int64_t(bi[ib]))); break;
    case 5: oi[i] = compareI(op, int64_t(ai[ia]), int64_t(bi[ib])) ? 1 : 0; break;
    case 6: oi[i] = ai[ia] != 0 ? bi[ib] : ci[ic]; break;
    case 7: o64[i] = ai[ia] != 0 ? b64[ib] : c64[ic]; break;
    case 8: od[i] = binaryD(op, ad[ia], bd[ib]); break;
    case 9: oi[i] = compareD(op, ad[ia], bd[ib]) ? 1 : 0; break;
    }
}
