// SPDX-License-Identifier: MIT
// Activations and Clip on F32, and fills (ConstantOfShape).
// p: 0 n, 1 op (act.glsl; -1 fill), 2-5 parameters, 6 IsNaN writes 32-bit Bool, 7 fill words, 8-9 fill value.
#version 450
#include "common.glsl"
#include "act.glsl"
// The op as a specialization constant where the plan sets it (-100: read it from p[1]).
layout(constant_id = 0) const int kOp = -100;
// 4: each invocation maps four consecutive floats with 16-byte loads and stores (F32 results only; the plan sets
// it). A GPU reaches its memory bandwidth only with that many bytes in flight per invocation.
layout(constant_id = 1) const int kVec = 1;
layout(set = 0, binding = 1) restrict readonly buffer X { float x[]; };
layout(set = 0, binding = 1) restrict readonly buffer X4 { vec4 x4[]; };
layout(set = 0, binding = 2) restrict writeonly buffer Y { float y[]; };
layout(set = 0, binding = 2) restrict writeonly buffer Y4 { vec4 y4[]; };
layout(set = 0, binding = 2) restrict writeonly buffer YU { uint yu[]; };

void main()
{
    uint i = gid();
    uint n = uint(p[0]);
    int op = kOp != -100 ? kOp : p[1];
    float a = pf(2), b = pf(3), c = pf(4), d = pf(5);
    if (kVec == 4) {
        uint first = 4u * i;
        if (first + 4u <= n) {
            vec4 v = x4[i];
            y4[i] = vec4(activate(op, v.x, a, b, c, d), activate(op, v.y, a, b, c, d), activate(op, v.z, a, b, c, d),
                         activate(op, v.w, a, b, c, d));
        } else {
            for (uint j = first; j < n; ++j)
                y[j] = activate(op, x[j], a, b, c, d);
        }
        return;
    }
    if (i >= n)
        return;
    if (op < 0) {
        for (int w = 0; w < p[7]; ++w)
            yu[i * uint(p[7]) + uint(w)] = uint(p[8 + w]);
        return;
    }
    float v = activate(op, x[i], a, b, c, d);
    if (p[6] != 0)
        yu[i] = v != 0.0 ? 1u : 0u;
    else
        y[i] = v;
}
