// SPDX-License-Identifier: MIT
// Copies whose source index is computed per output element: Pad (constant, edge, reflect), Tile (a wrapping pad)
// GatherElements and GatherND. Any element size of 1, 2, 4 or 8 bytes.
#include "cuda/cuda_kernels.h"

#include <cstdint>

namespace costscope::cuda {

namespace {
constexpr int kThreads = 256;

unsigned gridFor(std::int64_t n)
{
    const std::int64_t b = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}

// The source coordinate of output coordinate k (already shifted by the leading pad) along an axis of extent n;
// -1 when it falls outside and the mode fills it with the constant.
__device__ std::int64_t padSource(PadMode mode, std::int64_t k, std::int64_t n)
{
    if (k >= 0 && k < n)
        return k;
    switch (mode) {
    case PadMode::Constant: return -1;
    case PadMode::Edge: return k < 0 ? 0 : n - 1;
    case PadMode::Wrap: return ((k % n) + n) % n;
    case PadMode::Reflect: {
        if (n <= 1)
            return 0;
        const std::int64_t period = 2 * (n - 1);
        k = ((k % period) + period) % period;
        return k < n ? k : period - k;
    }
    }
    return -1;
}

template <class T>
__global__ void padKernel(const T* x, T* out, PadArgs a)
{
    const T fill = a.fillPtr ? *static_cast<const T*>(a.fillPtr) : static_cast<T>(a.fill);
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.count;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        std::int64_t rem = i, off = 0;
        bool outside = false;
        for (int d = a.rank - 1; d >= 0; --d) {
            const std::int64_t k = padSource(a.mode, rem % a.outDims[d] - a.padBegin[d], a.inDims[d]);
            rem /= a.outDims[d];
            outside = outside || k < 0;
            off += k * a.inStrides[d];
        }
        out[i] = outside ? fill : x[off];
    }
}

template <class T>
__global__ void gatherElementsKernel(const T* x, const void* indices, T* out, GatherElementsArgs a)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.count;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        std::int64_t k = a.indices64 ? static_cast<const std::int64_t*>(indices)[i]
                                     : static_cast<const std::int32_t*>(indices)[i];
        if (k < 0)
            k += a.axisDim;
        std::int64_t rem = i, off = 0;
        for (int d = a.rank - 1; d >= 0; --d) {
            const std::int64_t coord = rem % a.dims[d];
            rem /= a.dims[d];
            off += (d == a.axis ? k : coord) * a.xStrides[d];
        }
        out[i] = (k >= 0 && k < a.axisDim) ? x[off] : T{};
    }
}

template <class T>
__global__ void gatherNDKernel(const T* x, const void* indices, T* out, GatherNDArgs a)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.count;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t tuple = i / a.slice, within = i % a.slice;
        std::int64_t off = (tuple / a.perBatch) * a.batchStride + within;
        bool inside = true;
        for (int d = 0; d < a.k; ++d) {
            const std::int64_t at = tuple * a.k + d;
            std::int64_t c = a.indices64 ? static_cast<const std::int64_t*>(indices)[at]
                                         : static_cast<const std::int32_t*>(indices)[at];
            c = c < 0 ? c + a.dims[d] : c;
            inside = inside && c >= 0 && c < a.dims[d];
            off += c * a.strides[d];
        }
        out[i] = inside ? x[off] : T{};
    }
}

template <class T>
void gatherNDAs(const void* x, const void* indices, void* out, const GatherNDArgs& a, cudaStream_t s)
{
    gatherNDKernel<T><<<gridFor(a.count), kThreads, 0, s>>>(static_cast<const T*>(x), indices, static_cast<T*>(out),
                                                            a);
}

template <class T>
void padAs(const void* x, void* out, const PadArgs& a, cudaStream_t s)
{
    padKernel<T><<<gridFor(a.count), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<T*>(out), a);
}

template <class T>
void gatherElementsAs(const void* x, const void* indices, void* out, const GatherElementsArgs& a, cudaStream_t s)
{
    gatherElementsKernel<T><<<gridFor(a.count), kThreads, 0, s>>>(static_cast<const T*>(x), indices,
                                                                  static_cast<T*>(out), a);
}
} // namespace

void launchPad(const void* x, void* out, const PadArgs& a, cudaStream_t s)
{
    if (a.count == 0)
        return;
    switch (a.elementSize) {
    case 1: return padAs<std::uint8_t>(x, out, a, s);
    case 2: return padAs<std::uint16_t>(x, out, a, s);
    case 8: return padAs<std::uint64_t>(x, out, a, s);
    default: return padAs<std::uint32_t>(x, out, a, s);
    }
}

void launchGatherElements(const void* x, const void* indices, void* out, const GatherElementsArgs& a, cudaStream_t s)
{
    if (a.count == 0)
        return;
    switch (a.elementSize) {
    case 1: return gatherElementsAs<std::uint8_t>(x, indices, out, a, s);
    case 2: return gatherElementsAs<std::uint16_t>(x, indices, out, a, s);
    case 8: return gatherElementsAs<std::uint64_t>(x, indices, out, a, s);
    default: return gatherElementsAs<std::uint32_t>(x, indices, out, a, s);
    }
}

void launchGatherND(const void* x, const void* indices, void* out, const GatherNDArgs& a, cudaStream_t s)
{
    if (a.count == 0)
        return;
    switch (a.elementSize) {
    case 1: return gatherNDAs<std::uint8_t>(x, indices, out, a, s);
    case 2: return gatherNDAs<std::uint16_t>(x, indices, out, a, s);
    case 8: return gatherNDAs<std::uint64_t>(x, indices, out, a, s);
    default: return gatherNDAs<std::uint32_t>(x, indices, out, a, s);
    }
}

} // namespace costscope::cuda
