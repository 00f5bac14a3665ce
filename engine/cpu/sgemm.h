// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/thread_pool.h"

#include <cstdint>

namespace costscope::cpu {

// Row-major C = alpha * op(A) * op(B) + beta * C, with op = transpose when the flag is set, spread over the pool.
// Deterministic: each element of C is the same chain of multiply-adds over k in ascending order (starting from
// beta * C, with alpha applied to A), whatever the thread count or the element's place in the tiling, so equal rows
// of op(A) or equal columns of op(B) give bit-identical results. Must not be called from inside a parallelFor body.
void sgemm(ThreadPool& pool, bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
           const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc);

// The same product on the calling thread alone (bit-identical to sgemm's result), for use inside a parallelFor body:
// many small independent products (a grouped convolution's groups) spread over the pool one product per thread
// instead of paying one pool dispatch each.
void sgemmSerial(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* a,
                 std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc);

// Which kernel runs: "built-in packed 6x16, AVX2/FMA" or "built-in packed 6x16, portable".
const char* sgemmImplementation();

} // namespace costscope::cpu
