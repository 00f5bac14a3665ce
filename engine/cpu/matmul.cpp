// SPDX-License-Identifier: MIT
// MatMul (numpy semantics with batch broadcasting), FusedMatMulBiasAct and Gemm, all through sgemm.
#include "cpu/broadcast.h"
#include "cpu/sgemm.h"

#include <cstring>

namespace costscope::cpu {

namespace {
KernelStatus matmulInto(ThreadPool& pool, const HostTensor& a, const HostTensor& b, HostTensor& out)
{
    if (a.dtype() != DType::F32 || b.dtype() != DType::F32)
        return fail("MatMul needs F32 inputs, got " + describe(a) + " and " + describe(b));
    const auto md = matmulDims(a.dims(), b.dims(), [&](std::size_t i) { return describe(i == 0 ? a : b); });
    if (!md)
        return md.error();
    const std::int64_t m = md->m, k = md->k, n = md->n;
    const Dims &aBatch = md->aBatch, &bBatch = md->bBatch;
    const Dims& batch = md->batch;
    out.reset(md->out, DType::F32);
    const float* pa = a.values<float>().data();
    const float* pb = b.values<float>().data();
    float* pc = out.values<float>().data();
    if (k == 0) {
        std::memset(pc, 0, out.byteSize());
        return ok();
    }
    if (bBatch.empty() || product(bBatch) == 1) {
        // One sgemm with the batch folded into M: far better for the packed sgemm than many small calls.
        const std::int64_t rows = product(batch) * m;
        if (product(aBatch) == product(batch)) {
            sgemm(pool, false, false, rows, n, k, 1.0f, pa, k, pb, n, 0.0f, pc, n);
            return ok();
        }
    }
    auto bc = makeBroadcast({&aBatch, &bBatch});
    const std::int64_t batches = product(batch);
    for (std::int64_t i = 0; i < batches; ++i) {
        std::int64_t rem = i, ai = 0, bi = 0;
        for (std::size_t d = batch.size(); d-- > 0;) {
            const std::int64_t idx = rem % batch[d];
            rem /= batch[d];
            ai += idx * bc->strides[0][d];
            bi += idx * bc->strides[1][d];
        }
        sgemm(pool, false, false, m, n, k, 1.0f, pa + ai * m * k, k, pb + bi * k * n, n, 0.0f, pc + i * m * n, n);
    }
    return ok();
}
} // namespace

KernelStatus runMatMul(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return matmulInto(ctx.pool, *in[0], *in[1], out);
}

KernelStatus runFusedMatMulBiasAct(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    if (auto s = matmulInto(ctx.pool, *in[0], *in[1], out); !s)
        return s;
    const std::int64_t n = out.rank() ? out.dims().back() : 1;
    float* pc = out.values<float>().data();
    const auto total = static_cast<std::int64_t>(out.elements());
    if (in.size() > 2) {
        const HostTensor& bias = *in[2];
        if (bias.dtype() != DType::F32 || static_cast<std::int64_t>(bias.elements()) != n)
            return fail("FusedMatMulBiasAct: bias " + describe(bias) + " must hold " + std::to_string(n)
                        + " F32 values");
        const float* pb = bias.values<float>().data();
        ctx.pool.parallelFor(total / std::max<std::int64_t>(n, 1), 16, [&](std::int64_t s, std::int64_t e) {
            for (std::int64_t r = s; r < e; ++r)
                for (std::int64_t j = 0; j < n; ++j)
                    pc[r * n + j] += pb[j];
        });
    }
    const std::string act = ctx.attrs().stringOr("activation", "");
    if (!act.empty() && !applyActivation(ctx.pool, act, pc, total))
        return fail("FusedMatMulBiasAct: unsupported activation '" + act + "'");
    return ok();
}

KernelStatus runGemm(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor& a = *in[0];
    const HostTensor& b = *in[1];
    if (a.rank() != 2 || b.rank() != 2 || a.dtype() != DType::F32 || b.dtype() != DType::F32)
        return fail("Gemm needs two F32 matrices, got " + describe(a) + " and " + describe(b));
    const bool ta = ctx.attrs().intOr("trans_a", 0) != 0, tb = ctx.attrs().intOr("trans_b", 0) != 0;
    const auto alpha = static_cast<float>(ctx.attrs().doubleOr("alpha", 1.0));
    const auto beta = static_cast<float>(ctx.attrs().doubleOr("beta", 1.0));
    const std::int64_t m = ta ? a.dim(1) : a.dim(0), k = ta ? a.dim(0) : a.dim(1);
    const std::int64_t n = tb ? b.dim(0) : b.dim(1);
    if ((tb ? b.dim(1) : b.dim(0)) != k)
        return fail("Gemm: inner dims differ: " + describe(a) + " x " + describe(b));
    out.reset({m, n}, DType::F32);
    float* pc = out.values<float>().data();
    const bool withC = in.size() > 2 && beta != 0.0f;
    if (withC) {
        const HostTensor& c = *in[2];
        const Dims od = out.dims();
        auto bc = makeBroadcast({&od, &c.dims()});
        if (!bc || bc->shape != od || c.dtype() != DType::F32)
            return fail("Gemm: C " + describe(c) + " does not broadcast to " + dimsString(od));
        stridedCopy(ctx.pool, c.bytes(), 0, bc->strides[1], od, out.bytes(), 4);
    }
    sgemm(ctx.pool, ta, tb, m, n, k, alpha, a.values<float>().data(), a.dim(1), b.values<float>().data(), b.dim(1),
          withC ? beta : 0.0f, pc, n);
    return ok();
}

} // namespace costscope::cpu
