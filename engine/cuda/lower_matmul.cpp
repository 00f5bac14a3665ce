// SPDX-License-Identifier: MIT
// MatMul (numpy batch broadcasting), FusedMatMulBiasAct and Gemm through cuBLAS. Row-major C = A B is issued as
// the column-major product C^T = B^T A^T, so no operand is copied or transposed. fp8 operands: lower_fp8_matmul.h.
#include "cuda/cuda_gemm.h"
#include "cuda/lower_fp8_matmul.h"

namespace costscope::cuda {

namespace {
bool fitsInt(std::int64_t v)
{
    return v >= 0 && v <= 0x7fffffff;
}

// Builds the launch of out = a @ b with numpy semantics; the output dims must equal the node's.
LowerResult matmulLaunch(LowerContext& c, const DeviceValue& a, const DeviceValue& b)
{
    const auto type = gemmStorageType(a.dtype);
    if (!type || b.dtype != a.dtype || c.out.dtype != a.dtype)
        return lowerError("MatMul operands " + valueString(a) + " and " + valueString(b) + " and result "
                          + valueString(c.out) + " must share one of F32, F16, BF16 on the CUDA backend");
    const auto md = matmulDims(a.dims, b.dims, [&](std::size_t i) { return valueString(i == 0 ? a : b); });
    if (!md)
        return md.error();
    const std::int64_t m = md->m, k = md->k, n = md->n;
    const Dims &aBatch = md->aBatch, &bBatch = md->bBatch, &batch = md->batch, &dims = md->out;
    if (dims != c.out.dims)
        return lowerError("MatMul: the product is " + dimsString(dims) + ", the node states " + valueString(c.out));
    const std::int64_t batches = product(batch), aCount = product(aBatch), bCount = product(bBatch);
    if (!fitsInt(m * batches) || !fitsInt(n) || !fitsInt(k) || !fitsInt(batches))
        return lowerError("MatMul: dimensions beyond cuBLAS's 32-bit sizes");
    // Byte pointers: the partial-broadcast offsets below are in elements of the storage type.
    const auto* pa = static_cast<const char*>(a.ptr);
    const auto* pb = static_cast<const char*>(b.ptr);
    auto* pc = static_cast<char*>(c.out.ptr);
    const std::int64_t es = byteSize(a.dtype);
    if (k == 0) {
        const std::size_t bytes = c.out.bytes;
        return Launch([=](cudaStream_t s) { cudaMemsetAsync(pc, 0, bytes, s); });
    }
    GemmCall g;
    g.handle = c.plan.cublas();
    g.type = *type;
    g.compute = computeTypeFor(c.plan.options().precision, *type);
    g.n = int(n);
    g.k = int(k);
    g.lda = int(k);
    g.ldb = int(n);
    if (bCount == 1 && aCount == batches) {
        g.m = int(batches * m); // B shared by every batch: one product with the batch folded into M
        return Launch([=](cudaStream_t s) { g(s, pa, pb, pc); });
    }
    g.m = int(m);
    g.strideC = m * n;
    if ((aCount == batches || aCount == 1) && (bCount == batches || bCount == 1)) {
        g.batch = int(batches);
        g.strideA = aCount == 1 ? 0 : m * k;
        g.strideB = bCount == 1 ? 0 : k * n;
        return Launch([=](cudaStream_t s) { g(s, pa, pb, pc); });
    }
    // Partial broadcasting ([2,1] x [1,3] batches): one product per output batch.
    const Dims aPad = [&] {
        Dims d(batch.size() - aBatch.size(), 1);
        d.insert(d.end(), aBatch.begin(), aBatch.end());
        return d;
    }();
    const Dims bPad = [&] {
        Dims d(batch.size() - bBatch.size(), 1);
        d.insert(d.end(), bBatch.begin(), bBatch.end());
        return d;
    }();
    const Dims as = *broadcastStrides(aPad, batch), bs = *broadcastStrides(bPad, batch);
    std::vector<std::pair<std::int64_t, std::int64_t>> offsets;
    for (std::int64_t i = 0; i < batches; ++i) {
        std::int64_t rem = i, ai = 0, bi = 0;
        for (std::size_t d = batch.size(); d-- > 0;) {
            const std::int64_t idx = rem % batch[d];
            rem /= batch[d];
            ai += idx * as[d];
            bi += idx * bs[d];
        }
        offsets.emplace_back(ai * m * k * es, bi * k * n * es);
    }
    return Launch([=](cudaStream_t s) {
        for (std::size_t i = 0; i < offsets.size(); ++i)
            g(s, pa + offsets[i].first, pb + offsets[i].second, pc + std::int64_t(i) * m * n * es);
    });
}
} // namespace

LowerResult lowerMatMul(LowerContext& c)
{
    if (isFp8(c.in[0]->dtype) || isFp8(c.in[1]->dtype))
        return lowerFp8Gemm(c);
    return matmulLaunch(c, *c.in[0], *c.in[1]);
}

LowerResult lowerFusedMatMulBiasAct(LowerContext& c)
{
    auto mm = matmulLaunch(c, *c.in[0], *c.in[1]);
    if (!mm)
        return mm;
    const std::int64_t n = c.out.dims.empty() ? 1 : c.out.dims.back();
    const DeviceValue* bias = nullptr;
    if (c.in.size() > 2) {
        bias = c.in[2];
        if (bias->dtype != c.out.dtype || static_cast<std::int64_t>(bias->elements()) != n)
            return lowerError("FusedMatMulBiasAct: bias " + valueString(*bias) + " must hold " + std::to_string(n) + " "
                              + std::string(dtypeName(c.out.dtype)) + " values");
    }
    const std::string name = c.attrs().stringOr("activation", "");
    ActArgs act;
    if (!name.empty()) {
        auto a = activationFor(name, c.attrs());
        if (!a)
            return lowerError("FusedMatMulBiasAct: unsupported activation '" + name + "'");
        act = *a;
    }
    if (!bias && act.op == ActOp::None)
        return mm;
    Launch mmLaunch = std::move(*mm);
    if (c.out.dtype != DType::F32) {
        // 16-bit: the bias and activation as an element-wise program over the product, in place.
        DeviceValue biasRow;
        std::vector<const DeviceValue*> inputs = {&c.out};
        std::vector<FusedOp> code;
        if (bias) {
            biasRow = *bias;
            biasRow.dims = {n};
            inputs.push_back(&biasRow);
            code.push_back(FusedOp{true, BinaryOp::Add, {}, 0, 1});
        }
        if (act.op != ActOp::None)
            code.push_back(FusedOp{false, BinaryOp::Add, act, std::uint8_t(inputs.size() + code.size() - 1), 0});
        auto epilogue = elementwiseProgram(inputs, code, c.out, c.node.op.label(), nullptr);
        if (!epilogue)
            return epilogue;
        return Launch([mmLaunch, pass = std::move(*epilogue)](cudaStream_t s) {
            mmLaunch(s);
            pass(s);
        });
    }
    auto* y = static_cast<float*>(c.out.ptr);
    const auto* biasPtr = bias ? static_cast<const float*>(bias->ptr) : nullptr;
    const std::int64_t rows = n ? product(c.out.dims) / n : 0;
    return Launch([=](cudaStream_t s) {
        mmLaunch(s);
        launchBiasActivation(y, biasPtr, rows, n, act, s);
    });
}

LowerResult lowerGemm(LowerContext& c)
{
    if (isFp8(c.in[0]->dtype) || isFp8(c.in[1]->dtype))
        return lowerFp8Gemm(c);
    const DeviceValue &a = *c.in[0], &b = *c.in[1];
    const auto type = gemmStorageType(a.dtype);
    if (a.dims.size() != 2 || b.dims.size() != 2 || !type || b.dtype != a.dtype || c.out.dtype != a.dtype)
        return lowerError("Gemm needs two matrices and a result of one of F32, F16, BF16, got " + valueString(a)
                          + " and " + valueString(b) + " to " + valueString(c.out));
    GemmCall g;
    g.handle = c.plan.cublas();
    g.type = *type;
    g.compute = computeTypeFor(c.plan.options().precision, *type);
    g.ta = c.attrs().intOr("trans_a", 0) != 0;
    g.tb = c.attrs().intOr("trans_b", 0) != 0;
    g.alpha = static_cast<float>(c.attrs().doubleOr("alpha", 1.0));
    const auto beta = static_cast<float>(c.attrs().doubleOr("beta", 1.0));
    const std::int64_t m = g.ta ? a.dims[1] : a.dims[0], k = g.ta ? a.dims[0] : a.dims[1];
    const std::int64_t n = g.tb ? b.dims[0] : b.dims[1];
    if ((g.tb ? b.dims[1] : b.dims[0]) != k)
        return lowerError("Gemm: inner dims differ: " + valueString(a) + " x " + valueString(b));
    if (c.out.dims != Dims{m, n})
        return lowerError("Gemm: the product is [" + std::to_string(m) + "," + std::to_string(n) + "], the node states "
                          + valueString(c.out));
    if (!fitsInt(m) || !fitsInt(n) || !fitsInt(k))
        return lowerError("Gemm: dimensions beyond cuBLAS's 32-bit sizes");
    g.m = int(m);
    g.n = int(n);
    g.k = int(k);
    g.lda = int(a.dims[1]);
    g.ldb = int(b.dims[1]);
    const void* pa = a.ptr;
    const void* pb = b.ptr;
    void* pc = c.out.ptr;
    const bool withC = c.in.size() > 2 && beta != 0.0f;
    if (!withC)
        return Launch([=](cudaStream_t s) { g(s, pa, pb, pc); });
    const DeviceValue& cv = *c.in[2];
    auto cs = broadcastStrides(cv.dims, c.out.dims);
    StridedCopyArgs copy;
    if (!cs || cv.dtype != a.dtype
        || !makeStridedCopy(c.out.dims, *cs, contiguousStrides(c.out.dims), 0, 0, int(byteSize(a.dtype)), copy))
        return lowerError("Gemm: C " + valueString(cv) + " does not broadcast to " + valueString(c.out));
    GemmCall withBeta = g;
    withBeta.beta = beta;
    const void* pcIn = cv.ptr;
    return Launch([=](cudaStream_t s) {
        launchStridedCopy(pcIn, pc, copy, s);
        withBeta(s, pa, pb, pc);
    });
}

} // namespace costscope::cuda
