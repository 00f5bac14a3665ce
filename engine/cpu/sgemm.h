// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/thread_pool.h"

#include <cstdint>

namespace costscope::cpu {

// Row-major C = alpha * op(A) * op(B) + beta * C, with op = transpose when the flag is set. OpenBLAS when the
// build found it (it threads internally), else a blocked loop spread over the pool.
void sgemm(ThreadPool& pool, bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
           const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c, std::int64_t ldc);

// "OpenBLAS" or "built-in blocked loop".
const char* sgemmImplementation();

} // namespace costscope::cpu
