// SPDX-License-Identifier: MIT
// Cast between F32, I32, I64, Bool (32-bit on the device) and F64.
// p: 0 n, 1 from, 2 to (0 F32, 1 I32, 2 I64, 3 Bool, 4 F64).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer XF { float xf[]; };
layout(set = 0, binding = 1) readonly buffer XI { int xi[]; };
layout(set = 0, binding = 1) readonly buffer X64 { int64_t x64[]; };
layout(set = 0, binding = 1) readonly buffer XD { double xd[]; };
layout(set = 0, binding = 2) writeonly buffer YF { float yf[]; };
layout(set = 0, binding = 2) writeonly buffer YI { int yi[]; };
layout(set = 0, binding = 2) writeonly buffer Y64 { int64_t y64[]; };
layout(set = 0, binding = 2) writeonly buffer YD { double yd[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int from = p[1], to = p[2];
    double f = 0.0;
    int64_t v = 0;
    bool isFloat = from == 0 || from == 4;
    if (isFloat) {
        f = from == 0 ? double(xf[i]) : xd[i];
        v = (isnan(f) || isinf(f)) ? int64_t(0) : int64_t(f);
    } else if (from == 2) {
        v = x64[i];
        f = double(v);
    } else {
        v = int64_t(xi[i]);
        f = double(v);
    }
    bool nonzero = isFloat ? f != 0.0 : v != 0;
    if (to == 0)
        yf[i] = float(f);
    else if (to == 4)
        yd[i] = f;
    else if (to == 1)
        yi[i] = int(v);
    else if (to == 2)
        y64[i] = v;
    else
        yi[i] = nonzero ? 1 : 0;
}
