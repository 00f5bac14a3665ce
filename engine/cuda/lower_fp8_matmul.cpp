// SPDX-License-Identifier: MIT
// MatMul and Gemm with fp8 operands as one cuBLASLt FP8 product (cuda/fp8_matmul.h) in the layout cuda/fp8_dispatch.h
// chose: an operand stored otherwise is transposed into a scratch copy first (once, when the parameters are uploaded,
// for a weight; on every run for a computed value), and an fp8 result is computed in F32 and rounded once.
#include "cuda/lower_fp8_matmul.h"

#include "cuda/cuda_gemm.h"

namespace costscope::cuda {

namespace {
// cuBLASLt's type of an FP8 product's operand.
cudaDataType_t operandType(DType t)
{
    return t == DType::F8E4M3 ? CUDA_R_8F_E4M3 : CUDA_R_8F_E5M2;
}

// cuBLASLt's type of an FP8 product's result: F32 for an fp8 result (computed in F32, then rounded once by a Cast;
// cuBLASLt refuses an fp8 D without scale pointers, "the requested functionality is not supported", on an H200).
cudaDataType_t resultType(DType t)
{
    return isFp8(t) ? CUDA_R_32F : gemmStorageType(t).value_or(CUDA_R_32F);
}

bool fitsInt(std::int64_t v)
{
    return v > 0 && v <= 0x7fffffff;
}

// The copy of `rows`×`cols` byte matrices (`count` of them, one after another) transposed.
StridedCopyArgs transposedCopy(std::int64_t count, std::int64_t rows, std::int64_t cols)
{
    StridedCopyArgs a;
    makeStridedCopy({count, cols, rows}, {rows * cols, 1, cols}, contiguousStrides({count, cols, rows}), 0, 0, 1, a);
    return a;
}
} // namespace

Fp8Product fp8ProductOf(const Fp8GemmLayout& l)
{
    const Fp8Gemm& g = l.gemm;
    Fp8Product p{operandType(g.a), operandType(g.b), resultType(g.out), int(g.m), int(g.n), int(g.k)};
    p.batch = int(l.batch);
    p.strideA = l.batch > 1 ? g.m * g.k : 0;
    p.strideBt = l.batch > 1 ? g.n * g.k : 0;
    p.alpha = l.alpha;
    return p;
}

LowerResult lowerFp8Gemm(LowerContext& c)
{
    const DeviceValue &a = *c.in[0], &b = *c.in[1];
    auto layout = fp8GemmLayout(c.node, a.dims, a.dtype, b.dims, b.dtype, c.in.size());
    if (!layout)
        return lowerError("fp8 " + c.node.op.label() + " of " + valueString(a) + " and " + valueString(b) + ": "
                          + layout.error().message);
    const Fp8GemmLayout& l = *layout;
    const std::int64_t m = l.gemm.m, n = l.gemm.n, k = l.gemm.k;
    if (!fitsInt(m) || !fitsInt(n) || !fitsInt(k) || !fitsInt(l.batch) || !fitsInt(m * n))
        return lowerError(c.node.op.label() + ": dimensions beyond cuBLASLt's 32-bit sizes");
    if (std::int64_t(c.out.elements()) != l.batch * m * n)
        return lowerError(c.node.op.label() + ": the product holds " + std::to_string(l.batch * m * n)
                          + " elements, the node states " + valueString(c.out));
    // Which operands are weights: their copies are made once, after the upload.
    auto isWeight = [&](std::size_t i) {
        const OpKind kind = c.plan.graph().nodes[c.inPos[i]].op.kind;
        return kind == OpKind::Param || kind == OpKind::Constant;
    };
    std::vector<Launch> everyRun;
    auto operand = [&](std::size_t i, const DeviceValue& v, bool copy, std::int64_t count, std::int64_t rows,
                       std::int64_t cols) -> Result<const void*> {
        if (!copy)
            return static_cast<const void*>(v.ptr);
        auto scratch = c.workspace(std::size_t(count * rows * cols));
        if (!scratch)
            return scratch.error();
        const StridedCopyArgs args = transposedCopy(count, rows, cols);
        Launch transpose = [src = v.ptr, dst = *scratch, args](cudaStream_t s) {
            launchStridedCopy(src, dst, args, s);
        };
        if (isWeight(i))
            c.plan.addUploadStep(std::move(transpose));
        else
            everyRun.push_back(std::move(transpose));
        return static_cast<const void*>(*scratch);
    };
    // A stored [k,m] (trans_a) becomes [m,k]; B stored [k,n] (per batch) becomes Bᵀ[n,k].
    auto pa = operand(0, a, l.transA, 1, k, m);
    if (!pa)
        return pa.error();
    auto pbt = operand(1, b, l.copyB, l.batch, k, n);
    if (!pbt)
        return pbt.error();
    void* pd = c.out.ptr;
    const bool roundOut = isFp8(c.out.dtype);
    if (roundOut) {
        auto wide = c.workspace(std::size_t(l.batch * m * n) * sizeof(float));
        if (!wide)
            return wide.error();
        pd = *wide;
    }
    auto product = Fp8Matmul::create(c.plan.cublasLt(), fp8ProductOf(l), c.plan.libraryWorkspaceBytes());
    if (!product)
        return lowerError(c.node.op.label() + ": " + product.error().message);
    void* ws = c.plan.libraryWorkspace();
    (*product)->chooseFastest(*pa, *pbt, pd, ws, c.plan.stream());
    const CastType outType = c.out.dtype == DType::F8E4M3 ? CastType::F8E4M3 : CastType::F8E5M2;
    return Launch([=, a = *pa, bt = *pbt, mm = *product, out = c.out.ptr, count = l.batch * m * n](cudaStream_t s) {
        for (const Launch& copy : everyRun)
            copy(s);
        (*mm)(s, a, bt, pd, ws);
        if (roundOut)
            launchCast(pd, CastType::F32, out, outType, count, outType == CastType::F8E4M3, s);
    });
}

} // namespace costscope::cuda
