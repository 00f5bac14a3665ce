// SPDX-License-Identifier: MIT
// Complex layout conversions around cuFFT, and WelchPeaks (mean power over segments, then top-k bins).
#include "cuda/cuda_kernels.h"

namespace costscope::cuda {

namespace {
constexpr int kPeakThreads = 256;

unsigned gridFor(std::int64_t n)
{
    const std::int64_t b = (n + 255) / 256;
    return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}

__global__ void toInterleaved(const float* src, bool planar, float2* dst, std::int64_t rows, std::int64_t n)
{
    for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < rows * n;
         e += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t r = e / n, i = e % n;
        dst[e] = planar ? make_float2(src[r * 2 * n + i], src[r * 2 * n + n + i])
                        : make_float2(src[2 * e], src[2 * e + 1]);
    }
}

__global__ void fromInterleaved(const float2* src, float* dst, bool planar, std::int64_t rows, std::int64_t n,
                                float scale)
{
    for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < rows * n;
         e += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t r = e / n, i = e % n;
        const float2 c = src[e];
        dst[planar ? r * 2 * n + i : 2 * e] = c.x * scale;
        dst[planar ? r * 2 * n + n + i : 2 * e + 1] = c.y * scale;
    }
}

// One block per batch item: powers in shared memory, then k rounds of a block-wide arg-max (ties to the lower
// bin, as the CPU backend's partial_sort) that removes each winner.
__global__ void welchPeaks(const float* src, bool planar, float* out, std::int64_t segments, std::int64_t n,
                           std::int64_t k)
{
    extern __shared__ float power[];
    __shared__ float bestV[kPeakThreads];
    __shared__ std::int64_t bestI[kPeakThreads];
    const std::int64_t b = blockIdx.x, bins = n / 2 + 1;
    for (std::int64_t i = threadIdx.x; i < bins; i += blockDim.x) {
        float p = 0.0f;
        for (std::int64_t s = 0; s < segments; ++s) {
            const std::int64_t r = b * segments + s;
            const float re = planar ? src[r * 2 * n + i] : src[2 * (r * n + i)];
            const float im = planar ? src[r * 2 * n + n + i] : src[2 * (r * n + i) + 1];
            p += (re * re + im * im) / float(segments);
        }
        power[i] = i < n ? p : -1.0f;
    }
    __syncthreads();
    const std::int64_t top = k < bins ? k : bins;
    for (std::int64_t j = 0; j < k; ++j) {
        float v = -INFINITY;
        std::int64_t idx = bins;
        if (j < top)
            for (std::int64_t i = threadIdx.x; i < bins; i += blockDim.x)
                if (power[i] > v) {
                    v = power[i];
                    idx = i;
                }
        bestV[threadIdx.x] = v;
        bestI[threadIdx.x] = idx;
        __syncthreads();
        for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
            if (threadIdx.x < stride) {
                const float ov = bestV[threadIdx.x + stride];
                const std::int64_t oi = bestI[threadIdx.x + stride];
                if (ov > bestV[threadIdx.x] || (ov == bestV[threadIdx.x] && oi < bestI[threadIdx.x])) {
                    bestV[threadIdx.x] = ov;
                    bestI[threadIdx.x] = oi;
                }
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            const bool have = j < top && bestI[0] < bins;
            out[b * 2 * k + j] = have ? float(bestI[0]) : 0.0f;
            out[b * 2 * k + k + j] = have ? bestV[0] : 0.0f;
            if (have)
                power[bestI[0]] = -INFINITY;
        }
        __syncthreads();
    }
}
} // namespace

void launchComplexToInterleaved(const float* src, bool planar, float* dst, std::int64_t rows, std::int64_t n,
                                cudaStream_t s)
{
    if (rows * n)
        toInterleaved<<<gridFor(rows * n), 256, 0, s>>>(src, planar, reinterpret_cast<float2*>(dst), rows, n);
}

void launchInterleavedToComplex(const float* src, float* dst, bool planar, std::int64_t rows, std::int64_t n,
                                float scale, cudaStream_t s)
{
    if (rows * n)
        fromInterleaved<<<gridFor(rows * n), 256, 0, s>>>(reinterpret_cast<const float2*>(src), dst, planar, rows,
                                                          n, scale);
}

void launchWelchPeaks(const float* src, bool planar, float* out, std::int64_t batch, std::int64_t segments,
                      std::int64_t n, std::int64_t k, cudaStream_t s)
{
    const std::size_t shared = static_cast<std::size_t>(n / 2 + 1) * sizeof(float);
    if (batch)
        welchPeaks<<<static_cast<unsigned>(batch), kPeakThreads, shared, s>>>(src, planar, out, segments, n, k);
}

} // namespace costscope::cuda
