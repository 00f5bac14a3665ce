// SPDX-License-Identifier: MIT
#include "cuda/lt_autotune.h"

#include "cuda/cuda_timing.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace costscope::cuda {

int ltCandidateCount()
{
    if (const char* v = std::getenv("COSTSCOPE_CUDA_LT_AUTOTUNE")) {
        const int n = std::atoi(v);
        return std::clamp(n, 1, 16);
    }
    return 8;
}

namespace {
constexpr int kRepeats = 5, kCallsPerGraph = 8;

// One algorithm's time per call as a plan would run it (timeReplayedOnStream: calls captured into a CUDA graph,
// so that cuBLASLt's host-side launch cost, several µs, does not drown the kernels of thin products); +inf when it
// does not run.
double timeCandidate(const LtOperands& op, const cublasLtMatmulAlgo_t& algo, cudaStream_t stream)
{
    const float alpha = 1.0f;
    auto call = [&] {
        return cublasLtMatmul(op.handle, op.desc, &alpha, op.pa, op.a, op.pb, op.b, &op.beta, op.pc, op.c, op.pd, op.c,
                              &algo, op.workspace, op.workspaceBytes, stream);
    };
    if (call() != CUBLAS_STATUS_SUCCESS || cudaStreamSynchronize(stream) != cudaSuccess)
        return std::numeric_limits<double>::infinity();
    bool failed = false;
    const double t = timeReplayedOnStream(stream, kRepeats, kCallsPerGraph,
                                          [&] { failed = failed || call() != CUBLAS_STATUS_SUCCESS; });
    return failed || cudaGetLastError() != cudaSuccess ? std::numeric_limits<double>::infinity() : t;
}
} // namespace

int fastestLtCandidate(const LtOperands& op, const cublasLtMatmulHeuristicResult_t* found, int count,
                       cudaStream_t stream)
{
    if (count <= 1 || !stream)
        return 0;
    int best = 0;
    double bestS = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
        const double t = timeCandidate(op, found[i].algo, stream);
        if (t < bestS) {
            bestS = t;
            best = i;
        }
    }
    cudaGetLastError(); // a candidate that failed leaves no error behind for the plan's own launches
    return best;
}

} // namespace costscope::cuda
