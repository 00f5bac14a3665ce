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

// Median seconds of one call of f as a CUDA graph runs it: `calls` calls of f captured into one graph, the graph
// replayed `repeats` times between events. Timing one library call between two events on the stream also times
// the host's launch of it (cuBLAS spends several µs in the host before the kernel starts, and the GPU idles
// meanwhile): a 256x64x256 sgemm timed so came out at 13 µs on an H100, about four times what it costs inside a
// plan, which replays a CUDA graph (cuda_plan.h). Falls back to timing the calls enqueued back to back where the
// stream cannot be captured. The library handle must not allocate while captured (cublasSetWorkspace).
template <class F>
double timeReplayedOnStream(cudaStream_t s, int repeats, int calls, F f)
{
    calls = std::max(calls, 1);
    cudaGraphExec_t replay = nullptr;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
        for (int i = 0; i < calls; ++i)
            f();
        cudaGraph_t graph = nullptr;
        if (cudaStreamEndCapture(s, &graph) == cudaSuccess && graph) {
            if (cudaGraphInstantiate(&replay, graph, 0) != cudaSuccess)
                replay = nullptr;
            cudaGraphDestroy(graph);
        }
    }
    if (!replay) {
        cudaGetLastError(); // the failed capture's error is not the caller's
        return timeOnStream(s, repeats,
                            [&] {
                                for (int i = 0; i < calls; ++i)
                                    f();
                            })
               / calls;
    }
    const double t = timeOnStream(s, repeats, [&] { cudaGraphLaunch(replay, s); }) / calls;
    cudaGraphExecDestroy(replay);
    return t;
}

// How many calls of a product of `flops` a replayed graph holds: enough that the graph runs for tens of µs on
// small products, one on large ones.
inline int callsPerGraph(double flops)
{
    return flops < 2e8 ? 16 : flops < 2e9 ? 4 : 1;
}

} // namespace costscope::cuda
