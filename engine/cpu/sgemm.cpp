// SPDX-License-Identifier: MIT
#include "cpu/sgemm.h"

#include <algorithm>
#include <vector>

#ifdef COSTSCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace costscope::cpu {

#ifndef COSTSCOPE_HAVE_OPENBLAS
namespace {
// Fallback when no BLAS was found: rows of C over the pool, a k-blocked i-k-j loop that streams rows of B.
void blockedSgemm(ThreadPool& pool, bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k,
                  float alpha, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta,
                  float* c, std::int64_t ldc)
{
    constexpr std::int64_t kBlock = 256;
    pool.parallelFor(m, 4, [&](std::int64_t r0, std::int64_t r1) {
        std::vector<float> brow(static_cast<std::size_t>(n));
        for (std::int64_t i = r0; i < r1; ++i) {
            float* ci = c + i * ldc;
            for (std::int64_t j = 0; j < n; ++j)
                ci[j] = beta == 0.0f ? 0.0f : beta * ci[j];
        }
        for (std::int64_t p0 = 0; p0 < k; p0 += kBlock)
            for (std::int64_t i = r0; i < r1; ++i) {
                float* ci = c + i * ldc;
                for (std::int64_t p = p0; p < std::min(k, p0 + kBlock); ++p) {
                    const float av = alpha * (transA ? a[p * lda + i] : a[i * lda + p]);
                    if (transB) {
                        for (std::int64_t j = 0; j < n; ++j)
                            ci[j] += av * b[j * ldb + p];
                    } else {
                        const float* bp = b + p * ldb;
                        for (std::int64_t j = 0; j < n; ++j)
                            ci[j] += av * bp[j];
                    }
                }
            }
    });
}
} // namespace
#endif

void sgemm(ThreadPool& pool, bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
           const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc)
{
    if (m == 0 || n == 0)
        return;
#ifdef COSTSCOPE_HAVE_OPENBLAS
    (void)pool;
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
                static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), alpha, a,
                static_cast<blasint>(std::max<std::int64_t>(lda, 1)), b,
                static_cast<blasint>(std::max<std::int64_t>(ldb, 1)), beta, c,
                static_cast<blasint>(std::max<std::int64_t>(ldc, 1)));
#else
    blockedSgemm(pool, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

const char* sgemmImplementation()
{
#ifdef COSTSCOPE_HAVE_OPENBLAS
    return "OpenBLAS";
#else
    return "built-in blocked loop";
#endif
}

} // namespace costscope::cpu
