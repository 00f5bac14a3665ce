// SPDX-License-Identifier: MIT
// Convolution and pooling, any spatial rank up to 3 (lower ranks padded with extent-1 dims). Conv is im2col +
// cuBLAS (the lowering), or a direct kernel when the column buffer would be too large: cuDNN is not on every
// machine this builds for.
#include "cuda/cuda_kernels.h"

namespace costscope::cuda {

namespace {
unsigned gridFor(std::int64_t n)
{
    const std::int64_t b = (n + 255) / 256;
    return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}

__global__ void convKernel(ConvArgs a)
{
    const std::int64_t outSpatial = a.out[0] * a.out[1] * a.out[2];
    const std::int64_t inSpatial = a.in[0] * a.in[1] * a.in[2];
    const std::int64_t taps = a.kernel[0] * a.kernel[1] * a.kernel[2];
    const std::int64_t total = a.batch * a.outChannels * outSpatial;
    const std::int64_t cPerGroup = a.inChannels / a.groups, kPerGroup = a.outChannels / a.groups;
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t o2 = i % a.out[2], o1 = (i / a.out[2]) % a.out[1], o0 = (i / (a.out[2] * a.out[1])) % a.out[0];
        const std::int64_t oc = (i / outSpatial) % a.outChannels, n = i / (outSpatial * a.outChannels);
        const std::int64_t g = oc / kPerGroup;
        float acc = a.bias ? a.bias[oc] : 0.0f;
        for (std::int64_t c = 0; c < cPerGroup; ++c) {
            const float* x = a.x + (n * a.inChannels + g * cPerGroup + c) * inSpatial;
            const float* w = a.w + (oc * cPerGroup + c) * taps;
            for (std::int64_t k0 = 0; k0 < a.kernel[0]; ++k0) {
                const std::int64_t i0 = o0 * a.stride[0] - a.pad[0] + k0 * a.dilation[0];
                if (i0 < 0 || i0 >= a.in[0])
                    continue;
                for (std::int64_t k1 = 0; k1 < a.kernel[1]; ++k1) {
                    const std::int64_t i1 = o1 * a.stride[1] - a.pad[1] + k1 * a.dilation[1];
                    if (i1 < 0 || i1 >= a.in[1])
                        continue;
                    for (std::int64_t k2 = 0; k2 < a.kernel[2]; ++k2) {
                        const std::int64_t i2 = o2 * a.stride[2] - a.pad[2] + k2 * a.dilation[2];
                        if (i2 < 0 || i2 >= a.in[2])
                            continue;
                        acc += x[(i0 * a.in[1] + i1) * a.in[2] + i2]
                            * w[(k0 * a.kernel[1] + k1) * a.kernel[2] + k2];
                    }
                }
            }
        }
        a.y[i] = acc;
    }
}

__global__ void convTransposeKernel(ConvArgs a)
{
    const std::int64_t outSpatial = a.out[0] * a.out[1] * a.out[2];
    const std::int64_t inSpatial = a.in[0] * a.in[1] * a.in[2];
    const std::int64_t taps = a.kernel[0] * a.kernel[1] * a.kernel[2];
    const std::int64_t total = a.batch * a.outChannels * outSpatial;
    const std::int64_t cPerGroup = a.inChannels / a.groups, kPerGroup = a.outChannels / a.groups;
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t o[3] = {(i / (a.out[2] * a.out[1])) % a.out[0], (i / a.out[2]) % a.out[1], i % a.out[2]};
        const std::int64_t oc = (i / outSpatial) % a.outChannels, n = i / (outSpatial * a.outChannels);
        const std::int64_t g = oc / kPerGroup, ocg = oc % kPerGroup;
        float acc = a.bias ? a.bias[oc] : 0.0f;
        for (std::int64_t tap = 0; tap < taps; ++tap) {
            const std::int64_t k[3] = {tap / (a.kernel[2] * a.kernel[1]), (tap / a.kernel[2]) % a.kernel[1],
                                       tap % a.kernel[2]};
            std::int64_t src = 0;
            bool inside = true;
            for (int d = 0; d < 3 && inside; ++d) {
                const std::int64_t t = o[d] + a.pad[d] - k[d] * a.dilation[d];
                inside = t >= 0 && t % a.stride[d] == 0 && t / a.stride[d] < a.in[d];
                src = src * a.in[d] + (inside ? t / a.stride[d] : 0);
            }
            if (!inside)
                continue;
            for (std::int64_t c = 0; c < cPerGroup; ++c) {
                const std::int64_t ic = g * cPerGroup + c;
                acc += a.x[(n * a.inChannels + ic) * inSpatial + src] * a.w[(ic * kPerGroup + ocg) * taps + tap];
            }
        }
        a.y[i] = acc;
    }
}

__global__ void im2colKernel(ConvArgs a, float* col)
{
    const std::int64_t outSpatial = a.out[0] * a.out[1] * a.out[2];
    const std::int64_t inSpatial = a.in[0] * a.in[1] * a.in[2];
    const std::int64_t taps = a.kernel[0] * a.kernel[1] * a.kernel[2];
    const std::int64_t total = a.batch * a.inChannels * taps * outSpatial;
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t o = i % outSpatial, tap = (i / outSpatial) % taps, nc = i / (outSpatial * taps);
        const std::int64_t o2 = o % a.out[2], o1 = (o / a.out[2]) % a.out[1], o0 = o / (a.out[2] * a.out[1]);
        const std::int64_t k2 = tap % a.kernel[2], k1 = (tap / a.kernel[2]) % a.kernel[1];
        const std::int64_t k0 = tap / (a.kernel[2] * a.kernel[1]);
        const std::int64_t i0 = o0 * a.stride[0] - a.pad[0] + k0 * a.dilation[0];
        const std::int64_t i1 = o1 * a.stride[1] - a.pad[1] + k1 * a.dilation[1];
        const std::int64_t i2 = o2 * a.stride[2] - a.pad[2] + k2 * a.dilation[2];
        const bool inside = i0 >= 0 && i0 < a.in[0] && i1 >= 0 && i1 < a.in[1] && i2 >= 0 && i2 < a.in[2];
        col[i] = inside ? a.x[nc * inSpatial + (i0 * a.in[1] + i1) * a.in[2] + i2] : 0.0f;
    }
}

__global__ void channelBiasKernel(float* y, const float* bias, std::int64_t total, std::int64_t c, std::int64_t inner)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
         i += std::int64_t(gridDim.x) * blockDim.x)
        y[i] += bias[(i / inner) % c];
}

// One window element (k0, k1, k2) of output (o0, o1, o2) into the pool's running result: read where it falls
// inside the input, counted where it is inside or (count_include_pad) in the padding. Both pool kernels use it.
__device__ inline void poolStep(const PoolArgs& a, const float* x, std::int64_t o0, std::int64_t o1, std::int64_t o2,
                                std::int64_t k0, std::int64_t k1, std::int64_t k2, float& acc, std::int64_t& counted)
{
    const std::int64_t i0 = o0 * a.stride[0] - a.padBegin[0] + k0 * a.dilation[0];
    const std::int64_t i1 = o1 * a.stride[1] - a.padBegin[1] + k1 * a.dilation[1];
    const std::int64_t i2 = o2 * a.stride[2] - a.padBegin[2] + k2 * a.dilation[2];
    const bool inside = i0 >= 0 && i0 < a.in[0] && i1 >= 0 && i1 < a.in[1] && i2 >= 0 && i2 < a.in[2];
    const bool inPadded = i0 < a.in[0] + a.padEnd[0] && i1 < a.in[1] + a.padEnd[1] && i2 < a.in[2] + a.padEnd[2];
    if (inside) {
        const float v = x[(i0 * a.in[1] + i1) * a.in[2] + i2];
        acc = a.isMax ? fmaxf(acc, v) : acc + v;
    }
    counted += (inside || (a.includePad && inPadded)) ? 1 : 0;
}

__global__ void poolKernel(PoolArgs a)
{
    const std::int64_t outSpatial = a.out[0] * a.out[1] * a.out[2];
    const std::int64_t inSpatial = a.in[0] * a.in[1] * a.in[2];
    const std::int64_t total = a.planes * outSpatial;
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t o2 = i % a.out[2], o1 = (i / a.out[2]) % a.out[1], o0 = (i / (a.out[2] * a.out[1])) % a.out[0];
        const float* x = a.x + (i / outSpatial) * inSpatial;
        float acc = a.isMax ? -INFINITY : 0.0f;
        std::int64_t counted = 0;
        for (std::int64_t k0 = 0; k0 < a.kernel[0]; ++k0)
            for (std::int64_t k1 = 0; k1 < a.kernel[1]; ++k1)
                for (std::int64_t k2 = 0; k2 < a.kernel[2]; ++k2)
                    poolStep(a, x, o0, o1, o2, k0, k1, k2, acc, counted);
        a.y[i] = a.isMax ? acc : (counted ? acc / float(counted) : 0.0f);
    }
}

// Reduces one thread's partial pool result over its warp (lane 0 ends with the warp's).
__device__ inline void poolWarpReduce(bool isMax, float& acc, std::int64_t& counted)
{
    for (int o = 16; o > 0; o >>= 1) {
        const float other = __shfl_xor_sync(0xffffffffu, acc, o);
        acc = isMax ? fmaxf(acc, other) : acc + other;
        counted += __shfl_xor_sync(0xffffffffu, counted, o);
    }
}

// One warp per output for large windows (global pooling: a 56x56 window is 3 136 elements). One thread walking such
// a window serially is latency-bound: on an H100 a ShuffleNet's global average pool took ~0.2 ms this way, 3x what
// the cost model could learn. The lanes stride over the window (consecutive lanes read consecutive elements of a
// row) and the warp reduces the partial results; each element's step is poolKernel's (poolStep).
__global__ void poolWarpKernel(PoolArgs a)
{
    const std::int64_t outSpatial = a.out[0] * a.out[1] * a.out[2];
    const std::int64_t inSpatial = a.in[0] * a.in[1] * a.in[2];
    const std::int64_t total = a.planes * outSpatial;
    const std::int64_t window = a.kernel[0] * a.kernel[1] * a.kernel[2];
    const int lane = threadIdx.x % 32;
    const std::int64_t warps = std::int64_t(gridDim.x) * (blockDim.x / 32);
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x / 32) + threadIdx.x / 32; i < total; i += warps) {
        const std::int64_t o2 = i % a.out[2], o1 = (i / a.out[2]) % a.out[1], o0 = (i / (a.out[2] * a.out[1])) % a.out[0];
        const float* x = a.x + (i / outSpatial) * inSpatial;
        float acc = a.isMax ? -INFINITY : 0.0f;
        std::int64_t counted = 0;
        for (std::int64_t w = lane; w < window; w += 32) {
            const std::int64_t k2 = w % a.kernel[2], k1 = (w / a.kernel[2]) % a.kernel[1],
                               k0 = w / (a.kernel[2] * a.kernel[1]);
            poolStep(a, x, o0, o1, o2, k0, k1, k2, acc, counted);
        }
        poolWarpReduce(a.isMax, acc, counted);
        if (lane == 0)
            a.y[i] = a.isMax ? acc : (counted ? acc / float(counted) : 0.0f);
    }
}

// One block of kPoolBlock threads per output, for long windows and few outputs: a batch-1 ShuffleNet's global
// average pool has 24 outputs of 3 136 elements, so a warp per output left 24 warps on a GPU of 132 SMs, each walking
// 98 strides (60 us measured on an H200, 0.76x its prediction). The block's warps reduce as poolWarpKernel's do,
// then through shared memory.
constexpr int kPoolBlock = 256;
__global__ void poolBlockKernel(PoolArgs a)
{
    const std::int64_t outSpatial = a.out[0] * a.out[1] * a.out[2];
    const std::int64_t inSpatial = a.in[0] * a.in[1] * a.in[2];
    const std::int64_t window = a.kernel[0] * a.kernel[1] * a.kernel[2];
    const std::int64_t i = blockIdx.x;
    const std::int64_t o2 = i % a.out[2], o1 = (i / a.out[2]) % a.out[1], o0 = (i / (a.out[2] * a.out[1])) % a.out[0];
    const float* x = a.x + (i / outSpatial) * inSpatial;
    float acc = a.isMax ? -INFINITY : 0.0f;
    std::int64_t counted = 0;
    for (std::int64_t w = threadIdx.x; w < window; w += kPoolBlock) {
        const std::int64_t k2 = w % a.kernel[2], k1 = (w / a.kernel[2]) % a.kernel[1],
                           k0 = w / (a.kernel[2] * a.kernel[1]);
        poolStep(a, x, o0, o1, o2, k0, k1, k2, acc, counted);
    }
    poolWarpReduce(a.isMax, acc, counted);
    __shared__ float accs[kPoolBlock / 32];
    __shared__ std::int64_t counts[kPoolBlock / 32];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        accs[warp] = acc;
        counts[warp] = counted;
    }
    __syncthreads();
    if (warp == 0) {
        acc = lane < kPoolBlock / 32 ? accs[lane] : (a.isMax ? -INFINITY : 0.0f);
        counted = lane < kPoolBlock / 32 ? counts[lane] : 0;
        poolWarpReduce(a.isMax, acc, counted);
        if (lane == 0)
            a.y[i] = a.isMax ? acc : (counted ? acc / float(counted) : 0.0f);
    }
}
} // namespace

void launchConv(const ConvArgs& a, cudaStream_t s)
{
    const std::int64_t total = a.batch * a.outChannels * a.out[0] * a.out[1] * a.out[2];
    if (total)
        convKernel<<<gridFor(total), 256, 0, s>>>(a);
}

void launchConvTranspose(const ConvArgs& a, cudaStream_t s)
{
    const std::int64_t total = a.batch * a.outChannels * a.out[0] * a.out[1] * a.out[2];
    if (total)
        convTransposeKernel<<<gridFor(total), 256, 0, s>>>(a);
}

void launchIm2col(const ConvArgs& a, float* col, cudaStream_t s)
{
    const std::int64_t total = a.batch * a.inChannels * a.kernel[0] * a.kernel[1] * a.kernel[2] * a.out[0] * a.out[1]
        * a.out[2];
    if (total)
        im2colKernel<<<gridFor(total), 256, 0, s>>>(a, col);
}

void launchChannelBias(float* y, const float* bias, std::int64_t n, std::int64_t c, std::int64_t inner,
                       cudaStream_t s)
{
    if (n * c * inner)
        channelBiasKernel<<<gridFor(n * c * inner), 256, 0, s>>>(y, bias, n * c * inner, c, inner);
}

void launchPool(const PoolArgs& a, cudaStream_t s)
{
    const std::int64_t total = a.planes * a.out[0] * a.out[1] * a.out[2];
    if (!total)
        return;
    // A block per output where the window is long and the outputs few, else a warp per output where the window is
    // longer than a few lanes' worth and there are few outputs to spread over the GPU's threads. From 256 elements
    // (eight strides of a warp, each a dependent load and the index arithmetic) a block is faster: with the block
    // only from 1024, a global pool over 28x28 took 16 us on an H200 where 56x56, four times the window, took 9 us.
    const std::int64_t window = a.kernel[0] * a.kernel[1] * a.kernel[2];
    if (window >= 256 && total <= 4096)
        poolBlockKernel<<<unsigned(total), kPoolBlock, 0, s>>>(a);
    else if (window >= 64 && total <= (std::int64_t(1) << 20))
        poolWarpKernel<<<gridFor(total * 32), 256, 0, s>>>(a);
    else
        poolKernel<<<gridFor(total), 256, 0, s>>>(a);
}

} // namespace costscope::cuda
