// SPDX-License-Identifier: MIT
#pragma once
// Timing of work enqueued on a stream, for the calibration microbenchmarks.

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace costscope::cuda {

// Median seconds of `repeats` timings of f on the stream, after one warm-up, measured with events.
template <class F>
double timeOnStream(cudaStream_t s, int repeats, F f)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    f();
    std::vector<double> samples;
    for (int i = 0; i < repeats; ++i) {
        cudaEventRecord(a, s);
        f();
        cudaEventRecord(b, s);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        samples.push_back(ms * 1e-3);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
    return samples[samples.size() / 2];
}

} // namespace costscope::cuda
