// SPDX-License-Identifier: MIT
#include "cuda/fp8_matmul.h"

#include <string>

namespace costscope::cuda {

namespace {
bool ok(cublasStatus_t s)
{
    return s == CUBLAS_STATUS_SUCCESS;
}

bool setBatch(cublasLtMatrixLayout_t l, int batch, long long stride)
{
    const std::int32_t count = batch;
    const std::int64_t offset = stride;
    return ok(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count))
           && ok(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &offset,
                                                  sizeof offset));
}
} // namespace

Result<std::shared_ptr<Fp8Matmul>> Fp8Matmul::create(cublasLtHandle_t handle, const Fp8Product& p,
                                                     std::uint64_t workspaceBytes)
{
    std::shared_ptr<Fp8Matmul> mm(new Fp8Matmul);
    mm->m_handle = handle;
    mm->m_alpha = p.alpha;
    mm->m_workspaceBytes = workspaceBytes;
    const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
    const auto um = std::uint64_t(p.m), un = std::uint64_t(p.n), uk = std::uint64_t(p.k);
    bool made =
        ok(cublasLtMatmulDescCreate(&mm->m_lt.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F))
        && ok(cublasLtMatmulDescSetAttribute(mm->m_lt.desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t))
        && ok(cublasLtMatmulDescSetAttribute(mm->m_lt.desc, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof n))
        && ok(cublasLtMatrixLayoutCreate(&mm->m_lt.a, p.bt, uk, un, std::int64_t(uk)))
        && ok(cublasLtMatrixLayoutCreate(&mm->m_lt.b, p.a, uk, um, std::int64_t(uk)))
        && ok(cublasLtMatrixLayoutCreate(&mm->m_lt.c, p.out, un, um, std::int64_t(un)))
        && ok(cublasLtMatmulPreferenceCreate(&mm->m_lt.preference))
        && ok(cublasLtMatmulPreferenceSetAttribute(mm->m_lt.preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                   &workspaceBytes, sizeof workspaceBytes));
    if (made && p.batch > 1)
        made = setBatch(mm->m_lt.a, p.batch, p.strideBt) && setBatch(mm->m_lt.b, p.batch, p.strideA)
               && setBatch(mm->m_lt.c, p.batch, static_cast<long long>(p.m) * p.n);
    if (!made)
        return Diagnostic::error("cuBLASLt refuses the FP8 product's descriptors");
    mm->m_found.resize(static_cast<std::size_t>(ltCandidateCount()));
    int count = 0;
    const cublasStatus_t s =
        cublasLtMatmulAlgoGetHeuristic(handle, mm->m_lt.desc, mm->m_lt.a, mm->m_lt.b, mm->m_lt.c, mm->m_lt.c,
                                       mm->m_lt.preference, int(mm->m_found.size()), mm->m_found.data(), &count);
    if (!ok(s) || count == 0)
        return Diagnostic::error(std::string("cuBLASLt has no FP8 algorithm for it")
                                 + (ok(s) ? "" : std::string(" (") + cublasGetStatusString(s) + ")"));
    mm->m_found.resize(std::size_t(count));
    mm->m_lt.algo = mm->m_found.front().algo;
    return mm;
}

void Fp8Matmul::chooseFastest(const void* a, const void* bt, void* d, void* workspace, cudaStream_t stream)
{
    // lt_autotune times with alpha 1: the choice of algorithm does not depend on alpha.
    const LtOperands op{m_handle, m_lt.desc, m_lt.a, m_lt.b, m_lt.c, bt, a, d, d, 0.0f, workspace, m_workspaceBytes};
    m_lt.algo = m_found[std::size_t(fastestLtCandidate(op, m_found.data(), int(m_found.size()), stream))].algo;
}

cublasStatus_t Fp8Matmul::operator()(cudaStream_t stream, const void* a, const void* bt, void* d, void* workspace) const
{
    const float beta = 0.0f;
    return cublasLtMatmul(m_handle, m_lt.desc, &m_alpha, bt, m_lt.a, a, m_lt.b, &beta, d, m_lt.c, d, m_lt.c, &m_lt.algo,
                          workspace, m_workspaceBytes, stream);
}

} // namespace costscope::cuda
