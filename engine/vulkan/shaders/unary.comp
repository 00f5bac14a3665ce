// SPDX-License-Identifier: MIT
// Activations and Clip on F32, and fills (ConstantOfShape).
// p: 0 n, 1 op (act.glsl; -1 fill), 2-5 parameters, 6 IsNaN writes 32-bit Bool, 7 fill words, 8-9 fill value.
#version 450
#include "common.glsl"
#include "act.glsl"
// The op as a specialization constant where the plan sets it (-100: read it from p[1]).
layout(constant_id = 0) const int kOp = -100;
layout(set = 0, binding = 1) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(set = 0, binding = 2) writeonly buffer YU { uint yu[]; };

void main()
{
    uint i = gid();
    if (i >= uint(p[0]))
        return;
    int op = kOp != -100 ? kOp : p[1];
    if (op < 0) {
        for (int w = 0; w < p[7]; ++w)
            yu[i * uint(p[7]) + uint(w)] = uint(p[8 + w]);
        return;
    }
    float v = activate(op, x[i], pf(2), pf(3), pf(4), pf(5));
    if (p[6] != 0)
        yu[i] = v != 0.0 ? 1u : 0u;
    else
        y[i] = v;
}
