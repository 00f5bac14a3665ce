// SPDX-License-Identifier: MIT
// Fill (ConstantOfShape), Cast, inference BatchNorm and LRN.
#include "cuda/cuda_kernels.h"
#include "cuda/elementwise_ops.cuh"

#include <cuda_fp8.h>

namespace costscope::cuda {

namespace {
unsigned gridFor(std::int64_t n)
{
    const std::int64_t b = (n + 255) / 256;
    return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}

template <class T>
__global__ void fillKernel(T* dst, std::int64_t n, T value)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::int64_t(gridDim.x) * blockDim.x)
        dst[i] = value;
}

__device__ double readAs(const void* p, CastType t, std::int64_t i)
{
    switch (t) {
    case CastType::F32: return static_cast<const float*>(p)[i];
    case CastType::F64: return static_cast<const double*>(p)[i];
    case CastType::I8: return static_cast<const signed char*>(p)[i];
    case CastType::U8:
    case CastType::Bool: return static_cast<const unsigned char*>(p)[i];
    case CastType::I32: return static_cast<const int*>(p)[i];
    case CastType::I64: return double(static_cast<const long long*>(p)[i]);
    case CastType::F16: return halfBitsToFloat(static_cast<const unsigned short*>(p)[i]);
    case CastType::BF16: return bf16BitsToFloat(static_cast<const unsigned short*>(p)[i]);
    case CastType::F8E4M3:
    case CastType::F8E5M2: {
        const auto bits = static_cast<const __nv_fp8_storage_t*>(p)[i];
        return __half2float(__half(__nv_cvt_fp8_to_halfraw(bits, t == CastType::F8E4M3 ? __NV_E4M3 : __NV_E5M2)));
    }
    }
    return 0;
}

// I64 goes through its own path: a double cannot hold every 64-bit integer.
__global__ void castKernel(const void* src, CastType from, void* dst, CastType to, std::int64_t n, bool saturate)
{
    const __nv_saturation_t fp8Saturation = saturate ? __NV_SATFINITE : __NV_NOSAT;
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        if (from == CastType::I64 && to == CastType::I64) {
            static_cast<long long*>(dst)[i] = static_cast<const long long*>(src)[i];
            continue;
        }
        const double v = readAs(src, from, i);
        switch (to) {
        case CastType::F32: static_cast<float*>(dst)[i] = float(v); break;
        case CastType::F64: static_cast<double*>(dst)[i] = v; break;
        case CastType::I8: static_cast<signed char*>(dst)[i] = static_cast<signed char>(v); break;
        case CastType::U8: static_cast<unsigned char*>(dst)[i] = static_cast<unsigned char>(v); break;
        case CastType::Bool: static_cast<unsigned char*>(dst)[i] = v != 0.0 ? 1 : 0; break;
        case CastType::I32: static_cast<int*>(dst)[i] = static_cast<int>(v); break;
        case CastType::I64: static_cast<long long*>(dst)[i] = static_cast<long long>(v); break;
        case CastType::F16: static_cast<unsigned short*>(dst)[i] = floatToHalfBitsRn(float(v)); break;
        case CastType::BF16: static_cast<unsigned short*>(dst)[i] = floatToBf16BitsRn(float(v)); break;
        case CastType::F8E4M3:
            static_cast<__nv_fp8_storage_t*>(dst)[i] = __nv_cvt_float_to_fp8(float(v), fp8Saturation, __NV_E4M3);
            break;
        case CastType::F8E5M2:
            static_cast<__nv_fp8_storage_t*>(dst)[i] = __nv_cvt_float_to_fp8(float(v), fp8Saturation, __NV_E5M2);
            break;
        }
    }
}

__global__ void batchNormKernel(const float* x, float* y, std::int64_t total, std::int64_t c, std::int64_t inner,
                                const float* scale, const float* bias, const float* mean, const float* var, float eps)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t ch = (i / inner) % c;
        const float m = scale[ch] / sqrtf(var[ch] + eps);
        y[i] = x[i] * m + (bias[ch] - mean[ch] * m);
    }
}

__global__ void lrnKernel(const float* x, float* y, std::int64_t total, std::int64_t c, std::int64_t inner, int size,
                          float alpha, float beta, float bias)
{
    const std::int64_t before = (size - 1) / 2, after = size - 1 - before;
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        const std::int64_t pos = i % inner, ch = (i / inner) % c, b = i / (inner * c);
        const std::int64_t lo = ch - before < 0 ? 0 : ch - before, hi = ch + after > c - 1 ? c - 1 : ch + after;
        float sq = 0.0f;
        for (std::int64_t k = lo; k <= hi; ++k) {
            const float v = x[(b * c + k) * inner + pos];
            sq += v * v;
        }
        y[i] = x[i] / powf(bias + alpha / float(size) * sq, beta);
    }
}
} // namespace

void launchFill(void* dst, std::int64_t count, int elementSize, std::uint64_t pattern, cudaStream_t s)
{
    if (count == 0)
        return;
    switch (elementSize) {
    case 1: fillKernel<<<gridFor(count), 256, 0, s>>>(static_cast<unsigned char*>(dst), count, static_cast<unsigned char>(pattern)); break;
    case 2: fillKernel<<<gridFor(count), 256, 0, s>>>(static_cast<unsigned short*>(dst), count, static_cast<unsigned short>(pattern)); break;
    case 8: fillKernel<<<gridFor(count), 256, 0, s>>>(static_cast<unsigned long long*>(dst), count, static_cast<unsigned long long>(pattern)); break;
    default: fillKernel<<<gridFor(count), 256, 0, s>>>(static_cast<unsigned*>(dst), count, static_cast<unsigned>(pattern)); break;
    }
}

void launchCast(const void* src, CastType from, void* dst, CastType to, std::int64_t count, bool saturate,
                cudaStream_t s)
{
    if (count)
        castKernel<<<gridFor(count), 256, 0, s>>>(src, from, dst, to, count, saturate);
}

void launchBatchNorm(const float* x, float* y, std::int64_t n, std::int64_t c, std::int64_t inner, const float* scale,
                     const float* bias, const float* mean, const float* var, float eps, cudaStream_t s)
{
    if (n * c * inner)
        batchNormKernel<<<gridFor(n * c * inner), 256, 0, s>>>(x, y, n * c * inner, c, inner, scale, bias, mean, var, eps);
}

void launchLrn(const float* x, float* y, std::int64_t n, std::int64_t c, std::int64_t inner, int size, float alpha,
               float beta, float bias, cudaStream_t s)
{
    if (n * c * inner)
        lrnKernel<<<gridFor(n * c * inner), 256, 0, s>>>(x, y, n * c * inner, c, inner, size, alpha, beta, bias);
}

} // namespace costscope::cuda
