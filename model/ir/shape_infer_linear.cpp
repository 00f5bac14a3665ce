// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

namespace costscope::shape_rules {

namespace {
bool conflict(const Dim& a, const Dim& b)
{
    return a.isStatic() && b.isStatic() && a.value != b.value;
}

// Numpy matmul: 1-D operands gain a dim that is dropped again; batch dims broadcast.
Result<Shape> matmul(const InferInput& x, const Shape& a, const Shape& b)
{
    if (a.rank() == 0 || b.rank() == 0)
        return x.fail("operands must have rank 1 or more, got " + a.toString() + " x " + b.toString());
    Shape la = a;
    Shape lb = b;
    if (a.rank() == 1)
        la.dims.insert(la.dims.begin(), Dim::fixed(1));
    if (b.rank() == 1)
        lb.dims.push_back(Dim::fixed(1));
    const Dim& k1 = la.dims.back();
    const Dim& k2 = lb.dims[lb.rank() - 2];
    if (conflict(k1, k2))
        return x.fail("inner dims differ: " + a.toString() + " x " + b.toString() + " (" + k1.toString() + " vs "
                      + k2.toString() + ")");
    Shape batchA{{la.dims.begin(), la.dims.end() - 2}, a.dtype};
    Shape batchB{{lb.dims.begin(), lb.dims.end() - 2}, b.dtype};
    auto out = broadcast(x, batchA, batchB);
    if (!out)
        return x.fail("batch dims do not broadcast: " + a.toString() + " x " + b.toString());
    if (a.rank() > 1)
        out->dims.push_back(la.dims[la.rank() - 2]);
    if (b.rank() > 1)
        out->dims.push_back(lb.dims.back());
    return out;
}

Result<Shape> withBias(const InferInput& x, Result<Shape> product)
{
    if (!product || x.in.size() < 3)
        return product;
    auto biased = broadcast(x, *product, x.in[2]);
    if (!biased)
        return x.fail("bias " + x.in[2].toString() + " does not broadcast to " + product->toString());
    if (biased->dims != product->dims)
        return x.fail("bias " + x.in[2].toString() + " would grow the result " + product->toString());
    return product;
}

Result<Shape> gemm(const InferInput& x)
{
    const Shape& a = x.in[0];
    const Shape& b = x.in[1];
    if (a.rank() != 2 || b.rank() != 2)
        return x.fail("operands must be 2-D, got " + a.toString() + " x " + b.toString());
    const bool ta = x.flag("trans_a", false);
    const bool tb = x.flag("trans_b", false);
    const Dim& m = a.dims[ta ? 1 : 0];
    const Dim& k1 = a.dims[ta ? 0 : 1];
    const Dim& k2 = b.dims[tb ? 1 : 0];
    const Dim& n = b.dims[tb ? 0 : 1];
    if (conflict(k1, k2))
        return x.fail("inner dims differ: " + a.toString() + (ta ? "^T" : "") + " x " + b.toString() + (tb ? "^T" : "")
                      + " (" + k1.toString() + " vs " + k2.toString() + ")");
    return withBias(x, Shape{{m, n}, a.dtype});
}

// Output has q's shape; q is [.., seq, num_heads·head_dim] or [.., num_heads, seq, head_dim].
Result<Shape> attention(const InferInput& x)
{
    const Shape& q = x.in[0];
    if (q.rank() < 2)
        return x.fail("q must have rank 2 or more, got " + q.toString());
    for (std::size_t i = 1; i < 3; ++i)
        if (x.in[i].rank() != q.rank())
            return x.fail(std::string(i == 1 ? "k " : "v ") + x.in[i].toString() + " and q " + q.toString()
                          + " differ in rank");
    const auto heads = x.op.attrs.getInt("num_heads");
    const auto headDim = x.op.attrs.getInt("head_dim");
    if (heads && headDim && q.rank() == 3 && q.dims[2].isStatic()) {
        std::int64_t hidden = 0;
        if (__builtin_mul_overflow(*heads, *headDim, &hidden))
            return x.fail("num_heads x head_dim overflows");
        if (hidden != q.dims[2].value)
            return x.fail("q has " + q.dims[2].toString() + " features but num_heads " + std::to_string(*heads)
                          + " x head_dim " + std::to_string(*headDim) + " = " + std::to_string(hidden));
    }
    if (headDim && *headDim > 0 && q.rank() == 4 && q.dims[3].isStatic() && q.dims[3].value != *headDim)
        return x.fail("q has head size " + q.dims[3].toString() + ", head_dim is " + std::to_string(*headDim));
    return q;
}
} // namespace

Result<Shape> inferLinear(const InferInput& x)
{
    switch (x.op.kind) {
    case OpKind::MatMul: return matmul(x, x.in[0], x.in[1]);
    case OpKind::FusedMatMulBiasAct: return withBias(x, matmul(x, x.in[0], x.in[1]));
    case OpKind::Gemm: return gemm(x);
    default: return attention(x);
    }
}

} // namespace costscope::shape_rules
