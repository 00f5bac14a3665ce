// SPDX-License-Identifier: MIT
#pragma once
// A graph with two kernels a fusing backend makes (planFusion finds them): a GEMM with its bias and Relu, and an
// element-wise pair after it. The fusion-verified tests script runs of it with known times.
#include "cuda_cases.h"

namespace costscope::test {

struct Scripted {
    Graph g;
    NodeId mm = 0, add = 0, relu = 0, mul = 0, out = 0;
};

// x[64,256] · w[256,256] + bias, Relu (a GEMM epilogue), then (· scale) + shift (an element-wise pair).
inline Scripted scriptedGraph()
{
    cudacases::Builder b;
    Scripted s;
    const NodeId x = b.input({64, 256});
    const NodeId w = b.param({256, 256}, cudacases::values(256 * 256, 1));
    const NodeId bias = b.param({256}, cudacases::values(256, 2));
    s.mm = b.op(OpKind::MatMul, {}, {x, w}, {64, 256});
    s.add = b.op(OpKind::Binary, cudacases::attrs({{"op", std::string("Add")}}), {s.mm, bias}, {64, 256});
    s.relu = b.op(OpKind::Activation, cudacases::attrs({{"op", std::string("Relu")}}), {s.add}, {64, 256});
    const NodeId scale = b.param({256}, cudacases::values(256, 3));
    const NodeId shift = b.param({64, 256}, cudacases::values(64 * 256, 4));
    s.mul = b.op(OpKind::Binary, cudacases::attrs({{"op", std::string("Mul")}}), {s.relu, scale}, {64, 256});
    s.out = b.op(OpKind::Binary, cudacases::attrs({{"op", std::string("Add")}}), {s.mul, shift}, {64, 256});
    s.g = b.finish(s.out);
    s.g.name = "scripted";
    return s;
}

} // namespace costscope::test
