// SPDX-License-Identifier: MIT
#pragma once
// The per-element maths of Binary and Activation, shared by the one-op kernels (elementwise.cu) and the fused
// element-wise program (fused_elementwise.cu): both compute the same maths (the fused one may contract a Mul and an
// Add into one FMA, within rounding of the unfused result).
#include "cuda/cuda_kernels.h"

namespace costscope::cuda {

// F16 and BF16 storage: loaded to float exactly, stored rounding to nearest even (NaN stays NaN), through PTX's
// conversions and bit arithmetic rather than cuda_fp16.h/cuda_bf16.h, so that NVRTC's fused programs need no
// toolkit headers beside these.
__device__ inline float halfBitsToFloat(unsigned short h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}

__device__ inline unsigned short floatToHalfBitsRn(float f)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

__device__ inline float bf16BitsToFloat(unsigned short b)
{
    return __uint_as_float(static_cast<unsigned>(b) << 16);
}

__device__ inline unsigned short floatToBf16BitsRn(float f)
{
    const unsigned u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return static_cast<unsigned short>((u >> 16) | 0x40u);
    return static_cast<unsigned short>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

__device__ inline float binaryOp(BinaryOp op, float a, float b)
{
    switch (op) {
    case BinaryOp::Add: return a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a * b;
    case BinaryOp::Div: return a / b;
    case BinaryOp::Pow: return powf(a, b);
    case BinaryOp::Max: return fmaxf(a, b);
    case BinaryOp::Min: return fminf(a, b);
    case BinaryOp::Mod: return fmodf(a, b);
    case BinaryOp::PRelu: return a < 0.0f ? a * b : a;
    case BinaryOp::And: return float(a != 0.0f && b != 0.0f);
    case BinaryOp::Or: return float(a != 0.0f || b != 0.0f);
    case BinaryOp::Xor: return float((a != 0.0f) != (b != 0.0f));
    }
    return 0.0f;
}

__device__ inline float activation(const ActArgs& p, float x)
{
    switch (p.op) {
    case ActOp::Relu: return x > 0.0f ? x : 0.0f;
    case ActOp::Sigmoid: return 1.0f / (1.0f + expf(-x));
    case ActOp::Tanh: return tanhf(x);
    case ActOp::Exp: return expf(x);
    case ActOp::Log: return logf(x);
    case ActOp::Sqrt: return sqrtf(x);
    case ActOp::Rsqrt: return 1.0f / sqrtf(x);
    case ActOp::Neg: return -x;
    case ActOp::Abs: return fabsf(x);
    case ActOp::Erf: return erff(x);
    case ActOp::Sign: return float((x > 0.0f) - (x < 0.0f));
    case ActOp::Softplus: return x > 20.0f ? x : log1pf(expf(x));
    case ActOp::Softsign: return x / (1.0f + fabsf(x));
    case ActOp::IsNaN: return isnan(x) ? 1.0f : 0.0f;
    case ActOp::Reciprocal: return 1.0f / x;
    case ActOp::Floor: return floorf(x);
    case ActOp::Ceil: return ceilf(x);
    case ActOp::Round: return nearbyintf(x);
    case ActOp::Sin: return sinf(x);
    case ActOp::Cos: return cosf(x);
    case ActOp::Gelu: return 0.5f * x * (1.0f + erff(x * 0.70710678118654752440f));
    case ActOp::GeluApprox:
        return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
    case ActOp::Silu: return x / (1.0f + expf(-x));
    case ActOp::LeakyRelu: return x < 0.0f ? p.alpha * x : x;
    case ActOp::Elu: return x < 0.0f ? p.alpha * (expf(x) - 1.0f) : x;
    case ActOp::Selu: return p.gamma * (x > 0.0f ? x : p.alpha * (expf(x) - 1.0f));
    case ActOp::Shrink: return x < -p.lambd ? x + p.bias : (x > p.lambd ? x - p.bias : 0.0f);
    case ActOp::HardSigmoid: return fmaxf(0.0f, fminf(1.0f, p.alpha * x + p.beta));
    case ActOp::None: return x;
    }
    return x;
}

} // namespace costscope::cuda
