// SPDX-License-Identifier: MIT
// Reductions, softmax and layer/RMS norm: one block per row for contiguous rows (coalesced loads, block-wide
// tree reduction), one thread per output for strided cases.
#include "cuda/cuda_kernels.h"
#include "cuda/elementwise_ops.cuh"

#include <cfloat>

namespace costscope::cuda {

namespace {
constexpr int kRowThreads = 256;

// The storage types of softmax and norm: F32, and the bits of F16 and BF16, read as float and written rounded.
struct HalfBits {
    unsigned short bits;
};
struct Bf16Bits {
    unsigned short bits;
};
__device__ inline float toFloat(float v)
{
    return v;
}
__device__ inline float toFloat(HalfBits v)
{
    return halfBitsToFloat(v.bits);
}
__device__ inline float toFloat(Bf16Bits v)
{
    return bf16BitsToFloat(v.bits);
}
template <class T>
__device__ inline T fromFloat(float v);
template <>
__device__ inline float fromFloat<float>(float v)
{
    return v;
}
template <>
__device__ inline HalfBits fromFloat<HalfBits>(float v)
{
    return {floatToHalfBitsRn(v)};
}
template <>
__device__ inline Bf16Bits fromFloat<Bf16Bits>(float v)
{
    return {floatToBf16BitsRn(v)};
}

__device__ float combine(ReduceOp op, float a, float b)
{
    switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Mean: return a + b;
    case ReduceOp::Max: return fmaxf(a, b);
    case ReduceOp::Min: return fminf(a, b);
    case ReduceOp::Prod: return a * b;
    }
    return a;
}

__device__ float identity(ReduceOp op)
{
    return op == ReduceOp::Max ? -INFINITY : op == ReduceOp::Min ? INFINITY : op == ReduceOp::Prod ? 1.0f : 0.0f;
}

// Reduces v over the block; every thread gets the result. `shared` holds one float per warp.
__device__ float blockReduce(ReduceOp op, float v, float* shared)
{
    for (int o = 16; o > 0; o >>= 1)
        v = combine(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    __syncthreads(); // shared may still be read by a previous call
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    const int warps = blockDim.x / 32;
    v = lane < warps ? shared[lane] : identity(op);
    for (int o = 16; o > 0; o >>= 1)
        v = combine(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__global__ void reduceRows(const float* x, float* y, std::int64_t n, ReduceOp op)
{
    __shared__ float shared[32];
    const float* row = x + blockIdx.x * n;
    float acc = identity(op);
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x)
        acc = combine(op, acc, row[i]);
    acc = blockReduce(op, acc, shared);
    if (threadIdx.x == 0)
        y[blockIdx.x] = op == ReduceOp::Mean && n ? acc / float(n) : acc;
}

__global__ void reduceStrided(const float* x, float* y, ReduceArgs a)
{
    for (std::int64_t o = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; o < a.outCount;
         o += std::int64_t(gridDim.x) * blockDim.x) {
        std::int64_t rem = o, base = 0;
        for (int d = a.keptRank - 1; d >= 0; --d) {
            base += (rem % a.keptDims[d]) * a.keptStrides[d];
            rem /= a.keptDims[d];
        }
        float acc = identity(a.op);
        for (std::int64_t r = 0; r < a.redCount; ++r) {
            std::int64_t rr = r, off = base;
            for (int d = a.redRank - 1; d >= 0; --d) {
                off += (rr % a.redDims[d]) * a.redStrides[d];
                rr /= a.redDims[d];
            }
            acc = combine(a.op, acc, x[off]);
        }
        y[o] = a.op == ReduceOp::Mean && a.redCount ? acc / float(a.redCount) : acc;
    }
}

template <class T>
__global__ void softmaxRows(const T* x, T* y, std::int64_t n, bool logarithm)
{
    __shared__ float shared[32];
    const T* row = x + blockIdx.x * n;
    T* out = y + blockIdx.x * n;
    float mx = -INFINITY;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x)
        mx = fmaxf(mx, toFloat(row[i]));
    mx = blockReduce(ReduceOp::Max, mx, shared);
    float sum = 0.0f;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x)
        sum += expf(toFloat(row[i]) - mx);
    sum = blockReduce(ReduceOp::Sum, sum, shared);
    const float logSum = logf(sum);
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const float v = toFloat(row[i]);
        out[i] = fromFloat<T>(logarithm ? v - mx - logSum : expf(v - mx) / sum);
    }
}

template <class T>
__global__ void softmaxStrided(const T* x, T* y, std::int64_t outer, std::int64_t n, std::int64_t inner,
                               bool logarithm)
{
    for (std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; r < outer * inner;
         r += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t base = (r / inner) * n * inner + r % inner;
        float mx = -INFINITY, sum = 0.0f;
        for (std::int64_t i = 0; i < n; ++i)
            mx = fmaxf(mx, toFloat(x[base + i * inner]));
        for (std::int64_t i = 0; i < n; ++i)
            sum += expf(toFloat(x[base + i * inner]) - mx);
        for (std::int64_t i = 0; i < n; ++i) {
            const float v = toFloat(x[base + i * inner]);
            y[base + i * inner] = fromFloat<T>(logarithm ? v - mx - logf(sum) : expf(v - mx) / sum);
        }
    }
}

template <class T>
__global__ void normRows(const T* x, T* y, std::int64_t n, float eps, const T* scale, const T* bias, bool rms,
                         std::int64_t paramsPerRow)
{
    __shared__ float shared[32];
    const T* row = x + blockIdx.x * n;
    T* out = y + blockIdx.x * n;
    float mean = 0.0f;
    if (!rms) {
        float s = 0.0f;
        for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x)
            s += toFloat(row[i]);
        mean = blockReduce(ReduceOp::Sum, s, shared) / float(n);
    }
    float var = 0.0f;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const float d = toFloat(row[i]) - mean;
        var += d * d;
    }
    var = blockReduce(ReduceOp::Sum, var, shared) / float(n);
    const float inv = rsqrtf(var + eps);
    const std::int64_t p = paramsPerRow ? blockIdx.x % paramsPerRow : 0;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        const std::int64_t at = paramsPerRow ? p : i;
        const float v = (toFloat(row[i]) - mean) * inv * (scale ? toFloat(scale[at]) : 1.0f)
                        + (bias ? toFloat(bias[at]) : 0.0f);
        out[i] = fromFloat<T>(v);
    }
}

unsigned gridFor(std::int64_t n)
{
    const std::int64_t b = (n + 255) / 256;
    return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}

// Rows are blocks: CUDA allows 2^31 - 1 blocks in x, far beyond any row count a graph here produces.
unsigned rowBlocks(std::int64_t rows)
{
    return static_cast<unsigned>(rows);
}
} // namespace

void launchReduceRows(const float* x, float* y, std::int64_t rows, std::int64_t n, ReduceOp op, cudaStream_t s)
{
    if (rows)
        reduceRows<<<rowBlocks(rows), kRowThreads, 0, s>>>(x, y, n, op);
}

void launchReduceStrided(const float* x, float* y, const ReduceArgs& a, cudaStream_t s)
{
    if (a.outCount)
        reduceStrided<<<gridFor(a.outCount), 256, 0, s>>>(x, y, a);
}

namespace {
template <class T>
void softmaxAs(const void* x, void* y, std::int64_t outer, std::int64_t n, std::int64_t inner, bool logarithm,
               cudaStream_t s)
{
    const auto* px = static_cast<const T*>(x);
    auto* py = static_cast<T*>(y);
    if (inner == 1)
        softmaxRows<T><<<rowBlocks(outer), n <= 128 ? 128 : kRowThreads, 0, s>>>(px, py, n, logarithm);
    else
        softmaxStrided<T><<<gridFor(outer * inner), 256, 0, s>>>(px, py, outer, n, inner, logarithm);
}

template <class T>
void normAs(const void* x, void* y, std::int64_t rows, std::int64_t n, float eps, const void* scale, const void* bias,
            bool rms, cudaStream_t s, std::int64_t paramsPerRow)
{
    normRows<T><<<rowBlocks(rows), n <= 256 ? 128 : kRowThreads, 0, s>>>(
        static_cast<const T*>(x), static_cast<T*>(y), n, eps, static_cast<const T*>(scale),
        static_cast<const T*>(bias), rms, paramsPerRow);
}
} // namespace

void launchSoftmax(const void* x, void* y, ElemType storage, std::int64_t outer, std::int64_t n, std::int64_t inner,
                   bool logarithm, cudaStream_t s)
{
    if (outer * n * inner == 0)
        return;
    if (storage == ElemType::F16)
        softmaxAs<HalfBits>(x, y, outer, n, inner, logarithm, s);
    else if (storage == ElemType::BF16)
        softmaxAs<Bf16Bits>(x, y, outer, n, inner, logarithm, s);
    else
        softmaxAs<float>(x, y, outer, n, inner, logarithm, s);
}

void launchNorm(const void* x, void* y, ElemType storage, std::int64_t rows, std::int64_t n, float eps,
                const void* scale, const void* bias, bool rms, cudaStream_t s, std::int64_t paramsPerRow)
{
    if (rows * n == 0)
        return;
    if (storage == ElemType::F16)
        normAs<HalfBits>(x, y, rows, n, eps, scale, bias, rms, s, paramsPerRow);
    else if (storage == ElemType::BF16)
        normAs<Bf16Bits>(x, y, rows, n, eps, scale, bias, rms, s, paramsPerRow);
    else
        normAs<float>(x, y, rows, n, eps, scale, bias, rms, s, paramsPerRow);
}

} // namespace costscope::cuda
