// SPDX-License-Identifier: MIT
#include "cuda/cuda_calibrate.h"
#include "cuda/cuda_kernels.h"
#include "cuda/cuda_plan.h"
#include "cuda/cuda_timing.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>

namespace costscope {

namespace {
using cuda::cudaErrorText;
using cuda::timeOnStream;
using cuda::timeReplayedOnStream;

// Device buffer released on scope exit.
struct Buffer {
    void* p = nullptr;
    ~Buffer()
    {
        if (p)
            cudaFree(p);
    }
};

Result<bool> fillRandom(void* dst, std::size_t floats)
{
    std::vector<float> host(floats);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& f : host)
        f = dist(rng);
    if (cudaError_t e = cudaMemcpy(dst, host.data(), floats * 4, cudaMemcpyHostToDevice); e != cudaSuccess)
        return Diagnostic::error("calibration upload failed: " + cudaErrorText(e));
    return true;
}
} // namespace

Result<CudaCalibration> calibrateCuda(int device, const CudaCalibrationOptions& o)
{
    cudaDeviceProp prop{};
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
        return Diagnostic::error("no CUDA device: " + std::string(cudaGetErrorString(e)));
    cudaGetDeviceProperties(&prop, device);
    CudaCalibration cal;
    cal.device = prop.name;
    cudaStream_t s = nullptr;
    cudaStreamCreate(&s);
    std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> streamGuard(s, [](cudaStream_t st) { cudaStreamDestroy(st); });
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return Diagnostic::error("cannot initialise cuBLAS");
    std::unique_ptr<cublasContext, void (*)(cublasHandle_t)> cublasGuard(h, [](cublasHandle_t x) { cublasDestroy(x); });
    cublasSetStream(h, s);
    // A workspace of its own lets cuBLAS run inside the stream capture of timeReplayedOnStream without allocating.
    Buffer blasWorkspace;
    constexpr std::size_t kBlasWorkspace = std::size_t(32) << 20;
    if (cudaMalloc(&blasWorkspace.p, kBlasWorkspace) != cudaSuccess)
        return Diagnostic::error("out of GPU memory allocating the cuBLAS workspace");
    cublasSetWorkspace(h, blasWorkspace.p, kBlasWorkspace);

    const std::int64_t maxSize = *std::max_element(o.gemmSizes.begin(), o.gemmSizes.end());
    const auto maxFloats = static_cast<std::size_t>(maxSize * maxSize);
    Buffer a, b, c;
    if (cudaMalloc(&a.p, maxFloats * 4) != cudaSuccess || cudaMalloc(&b.p, maxFloats * 4) != cudaSuccess
        || cudaMalloc(&c.p, maxFloats * 4) != cudaSuccess)
        return Diagnostic::error("out of GPU memory allocating the sgemm calibration buffers");
    for (void* p : {a.p, b.p})
        if (auto r = fillRandom(p, maxFloats); !r)
            return r.error();
    for (std::int64_t size : o.gemmSizes)
        for (std::int64_t k : {size, std::max<std::int64_t>(size / 4, 1)}) {
            const int m = int(size), n = int(size), kk = int(k);
            const float one = 1.0f, zero = 0.0f;
            const double t = timeReplayedOnStream(s, o.repeats, cuda::callsPerGraph(2.0 * m * n * kk), [&] {
                cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, kk, &one, static_cast<const float*>(b.p), n,
                            static_cast<const float*>(a.p), kk, &zero, static_cast<float*>(c.p), n);
            });
            cal.sgemm.push_back({size, size, k, t, 2.0 * double(m) * n * kk / t});
        }

    Buffer src, dst, sum;
    if (cudaMalloc(&src.p, o.bandwidthBytes) != cudaSuccess || cudaMalloc(&dst.p, o.bandwidthBytes) != cudaSuccess
        || cudaMalloc(&sum.p, 4) != cudaSuccess)
        return Diagnostic::error("out of GPU memory allocating the bandwidth buffers");
    cudaMemsetAsync(src.p, 0, o.bandwidthBytes, s);
    const double copy = timeOnStream(s, o.repeats, [&] {
        cudaMemcpyAsync(dst.p, src.p, o.bandwidthBytes, cudaMemcpyDeviceToDevice, s);
    });
    cal.copyBytesPerSecond = 2.0 * double(o.bandwidthBytes) / copy;
    const auto floats = static_cast<std::int64_t>(o.bandwidthBytes / 4);
    // Many rows keep every SM busy; each row is long enough to stream.
    const std::int64_t rows = 4096;
    const double read = timeOnStream(s, o.repeats, [&] {
        cuda::launchReduceRows(static_cast<const float*>(src.p), static_cast<float*>(dst.p), rows, floats / rows,
                               cuda::ReduceOp::Sum, s);
    });
    cal.readBytesPerSecond = double(rows * (floats / rows) * 4) / read;

    constexpr int kLaunches = 1000;
    cal.launchOverheadSeconds = timeOnStream(s, 5, [&] {
        for (int i = 0; i < kLaunches; ++i)
            cuda::launchEmpty(s);
    }) / kLaunches;
    // The same empty kernels captured once and replayed: what a node costs inside the plain run's CUDA graph.
    cudaGraphExec_t replay = nullptr;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
        for (int i = 0; i < kLaunches; ++i)
            cuda::launchEmpty(s);
        cudaGraph_t graph = nullptr;
        if (cudaStreamEndCapture(s, &graph) == cudaSuccess && graph) {
            if (cudaGraphInstantiate(&replay, graph, 0) != cudaSuccess)
                replay = nullptr;
            cudaGraphDestroy(graph);
        }
    }
    if (!replay)
        return Diagnostic::error("calibration: cannot build the launch-overhead CUDA graph: "
                                 + cudaErrorText(cudaGetLastError()));
    cal.graphKernelSeconds = timeOnStream(s, 5, [&] { cudaGraphLaunch(replay, s); }) / kLaunches;
    cudaGraphExecDestroy(replay);
    using Clock = std::chrono::steady_clock;
    std::vector<double> trips;
    for (int i = 0; i < 200; ++i) {
        const auto t0 = Clock::now();
        cuda::launchEmpty(s);
        cudaStreamSynchronize(s);
        trips.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::nth_element(trips.begin(), trips.begin() + trips.size() / 2, trips.end());
    cal.launchSyncSeconds = trips[trips.size() / 2];

    void* pinned = nullptr;
    if (cudaMallocHost(&pinned, o.readbackBytes) != cudaSuccess)
        return Diagnostic::error("cannot allocate pinned host memory for the readback calibration");
    const double pinnedT = timeOnStream(s, o.repeats, [&] {
        cudaMemcpyAsync(pinned, src.p, o.readbackBytes, cudaMemcpyDeviceToHost, s);
    });
    cudaFreeHost(pinned);
    cal.pinnedReadbackBytesPerSecond = double(o.readbackBytes) / pinnedT;
    std::vector<std::byte> pageable(o.readbackBytes);
    const double pageableT = timeOnStream(s, o.repeats, [&] {
        cudaMemcpyAsync(pageable.data(), src.p, o.readbackBytes, cudaMemcpyDeviceToHost, s);
    });
    cal.pageableReadbackBytesPerSecond = double(o.readbackBytes) / pageableT;
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        return Diagnostic::error("calibration failed: " + cudaErrorText(e));
    if (o.precisions)
        calibrateCudaPrecisions(device, o, cal);
    if (o.convolutions) {
        auto conv = calibrateCudaConv(device, std::max(o.repeats / 2, 3));
        if (!conv)
            return conv.error();
        cal.conv = std::move(*conv);
    }
    return cal;
}

} // namespace costscope
