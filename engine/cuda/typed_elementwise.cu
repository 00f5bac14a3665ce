// SPDX-License-Identifier: MIT
// Element-wise kernels over any numeric dtype: typed Binary (F64, I64, I32, U8), Compare, Where, Clip and IsNaN,
// with the CPU backend's semantics.
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

template <class T>
__device__ bool isNegative(T a)
{
    if constexpr (T(-1) > T(0))
        return false;
    else
        return a < T(0);
}

template <class T>
__device__ T typedBinary(BinaryOp op, T a, T b)
{
    constexpr bool floating = T(0.5) != T(0);
    switch (op) {
    case BinaryOp::Add: return T(a + b);
    case BinaryOp::Sub: return T(a - b);
    case BinaryOp::Mul: return T(a * b);
    case BinaryOp::Div:
        if constexpr (floating)
            return a / b;
        else
            return b == 0 ? T(0) : T(a / b);
    case BinaryOp::Pow: return T(pow(double(a), double(b)));
    case BinaryOp::Max: return a > b ? a : b;
    case BinaryOp::Min: return a < b ? a : b;
    case BinaryOp::Mod:
        if constexpr (floating) {
            return fmod(a, b);
        } else {
            if (b == 0)
                return T(0);
            const T r = T(a % b);
            return (r != 0 && isNegative(r) != isNegative(b)) ? T(r + b) : r;
        }
    case BinaryOp::PRelu: return isNegative(a) ? T(a * b) : a;
    case BinaryOp::And: return T(a != T(0) && b != T(0));
    case BinaryOp::Or: return T(a != T(0) || b != T(0));
    case BinaryOp::Xor: return T((a != T(0)) != (b != T(0)));
    }
    return T(0);
}

template <class T>
__device__ bool compareOp(CompareOp op, T a, T b)
{
    switch (op) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: return a < b;
    case CompareOp::Le: return a <= b;
    case CompareOp::Gt: return a > b;
    case CompareOp::Ge: return a >= b;
    }
    return false;
}

// Offsets of output element i in a and b under the broadcast strides.
__device__ void broadcastOffsets(const BinaryArgs& args, std::int64_t i, std::int64_t& ai, std::int64_t& bi)
{
    std::int64_t rem = i;
    ai = 0;
    bi = 0;
    for (int d = args.rank - 1; d >= 0; --d) {
        const std::int64_t idx = rem % args.dims[d];
        rem /= args.dims[d];
        ai += idx * args.aStrides[d];
        bi += idx * args.bStrides[d];
    }
}

template <class T>
__global__ void binaryTypedKernel(const T* a, const T* b, T* o, BinaryArgs args)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < args.count;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        std::int64_t ai, bi;
        broadcastOffsets(args, i, ai, bi);
        o[i] = typedBinary(args.op, a[ai], b[bi]);
    }
}

template <class T>
__global__ void compareKernel(const T* a, const T* b, std::uint8_t* o, CompareOp op, BinaryArgs args)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < args.count;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        std::int64_t ai, bi;
        broadcastOffsets(args, i, ai, bi);
        o[i] = compareOp(op, a[ai], b[bi]) ? 1 : 0;
    }
}

template <class T>
__global__ void whereKernel(const std::uint8_t* cond, const T* x, const T* y, T* o, WhereArgs a)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.count;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        std::int64_t rem = i, ci = 0, xi = 0, yi = 0;
        for (int d = a.rank - 1; d >= 0; --d) {
            const std::int64_t idx = rem % a.dims[d];
            rem /= a.dims[d];
            ci += idx * a.condStrides[d];
            xi += idx * a.xStrides[d];
            yi += idx * a.yStrides[d];
        }
        o[i] = cond[ci] ? x[xi] : y[yi];
    }
}

template <class T>
__global__ void clipKernel(const T* x, T* y, std::int64_t n, double lo, double hi, const T* loPtr, const T* hiPtr)
{
    if (loPtr)
        lo = double(*loPtr);
    if (hiPtr)
        hi = double(*hiPtr);
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::int64_t(gridDim.x) * blockDim.x) {
        // std::min(std::max(v, lo), hi) as the CPU backend writes it: a NaN stays NaN.
        double v = double(x[i]);
        v = v < lo ? lo : v;
        y[i] = T(hi < v ? hi : v);
    }
}

__global__ void isNaNKernel(const float* x, std::uint8_t* o, std::int64_t n)
{
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::int64_t(gridDim.x) * blockDim.x)
        o[i] = isnan(x[i]) ? 1 : 0;
}

// Calls f(T{}) with the C++ type of t.
template <class F>
void dispatch(ElemType t, F f)
{
    switch (t) {
    case ElemType::F32: return f(float{});
    case ElemType::F64: return f(double{});
    case ElemType::I64: return f(std::int64_t{});
    case ElemType::I32: return f(std::int32_t{});
    case ElemType::U8: return f(std::uint8_t{});
    case ElemType::F16:
    case ElemType::BF16: return; // never asked: elemTypeOf gives no 16-bit floats
    }
}

template <class T>
void whereAs(const std::uint8_t* cond, const void* x, const void* y, void* out, const WhereArgs& a, cudaStream_t s)
{
    whereKernel<T><<<gridFor(a.count), kThreads, 0, s>>>(cond, static_cast<const T*>(x), static_cast<const T*>(y),
                                                         static_cast<T*>(out), a);
}
} // namespace

void launchBinaryTyped(const void* a, const void* b, void* out, ElemType t, const BinaryArgs& args, cudaStream_t s)
{
    if (args.count == 0)
        return;
    dispatch(t, [&](auto zero) {
        using T = decltype(zero);
        binaryTypedKernel<T><<<gridFor(args.count), kThreads, 0, s>>>(
            static_cast<const T*>(a), static_cast<const T*>(b), static_cast<T*>(out), args);
    });
}

void launchCompare(const void* a, const void* b, std::uint8_t* out, ElemType t, CompareOp op, const BinaryArgs& args,
                   cudaStream_t s)
{
    if (args.count == 0)
        return;
    dispatch(t, [&](auto zero) {
        using T = decltype(zero);
        compareKernel<T><<<gridFor(args.count), kThreads, 0, s>>>(static_cast<const T*>(a), static_cast<const T*>(b),
                                                                  out, op, args);
    });
}

void launchWhere(const std::uint8_t* cond, const void* x, const void* y, void* out, const WhereArgs& a,
                 cudaStream_t s)
{
    if (a.count == 0)
        return;
    switch (a.elementSize) {
    case 1: return whereAs<std::uint8_t>(cond, x, y, out, a, s);
    case 2: return whereAs<std::uint16_t>(cond, x, y, out, a, s);
    case 8: return whereAs<std::uint64_t>(cond, x, y, out, a, s);
    default: return whereAs<std::uint32_t>(cond, x, y, out, a, s);
    }
}

void launchClip(const void* x, void* y, ElemType t, std::int64_t count, const ClipBounds& b, cudaStream_t s)
{
    if (count == 0)
        return;
    dispatch(t, [&](auto zero) {
        using T = decltype(zero);
        clipKernel<T><<<gridFor(count), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<T*>(y), count, b.lo,
                                                          b.hi, static_cast<const T*>(b.loPtr),
                                                          static_cast<const T*>(b.hiPtr));
    });
}

void launchIsNaN(const float* x, std::uint8_t* out, std::int64_t count, cudaStream_t s)
{
    if (count)
        isNaNKernel<<<gridFor(count), kThreads, 0, s>>>(x, out, count);
}

} // namespace costscope::cuda
