// SPDX-License-Identifier: MIT
// The fused element-wise kernel: one thread per output element runs the whole program in registers.
#include "cuda/elementwise_ops.cuh"
#include "cuda/fused_kernels.h"

#include <cstdint>

namespace costscope::cuda {

namespace {
constexpr int kThreads = 256;

__device__ float load(const void* p, ElemType t, std::int64_t i)
{
    switch (t) {
    case ElemType::F32: return static_cast<const float*>(p)[i];
    case ElemType::F64: return static_cast<float>(static_cast<const double*>(p)[i]);
    case ElemType::I64: return static_cast<float>(static_cast<const std::int64_t*>(p)[i]);
    case ElemType::I32: return static_cast<float>(static_cast<const std::int32_t*>(p)[i]);
    case ElemType::U8: return static_cast<float>(static_cast<const std::uint8_t*>(p)[i]);
    case ElemType::F16: return halfBitsToFloat(static_cast<const unsigned short*>(p)[i]);
    case ElemType::BF16: return bf16BitsToFloat(static_cast<const unsigned short*>(p)[i]);
    }
    return 0.0f;
}

__device__ void store(void* p, ElemType t, std::int64_t i, float v)
{
    if (t == ElemType::F16)
        static_cast<unsigned short*>(p)[i] = floatToHalfBitsRn(v);
    else if (t == ElemType::BF16)
        static_cast<unsigned short*>(p)[i] = floatToBf16BitsRn(v);
    else
        static_cast<float*>(p)[i] = v;
}

// Index is int for outputs of up to 2^30 elements (cheaper division; the grid stride cannot overflow it), else int64.
template <class Index>
__global__ void fusedElementwiseKernel(const FusedElementwiseArgs a)
{
    const Index count = static_cast<Index>(a.count);
    for (Index i = blockIdx.x * Index(blockDim.x) + threadIdx.x; i < count; i += Index(gridDim.x) * blockDim.x) {
        float reg[kMaxFusedInputs + kMaxFusedOps];
        Index offset[kMaxFusedInputs] = {};
        Index rem = i;
        for (int d = a.rank - 1; d >= 0; --d) {
            const Index extent = static_cast<Index>(a.dims[d]);
            const Index idx = rem % extent;
            rem /= extent;
            for (int k = 0; k < a.inputs; ++k)
                offset[k] += idx * static_cast<Index>(a.strides[k][d]);
        }
        for (int k = 0; k < a.inputs; ++k)
            reg[k] = load(a.in[k], a.inType[k], offset[k]);
        for (int j = 0; j < a.ops; ++j) {
            const FusedOp& op = a.code[j];
            reg[a.inputs + j] = op.isBinary ? binaryOp(op.binary, reg[op.a], reg[op.b]) : activation(op.act, reg[op.a]);
        }
        store(a.out, a.outType, i, reg[a.inputs + a.ops - 1]);
    }
}

unsigned gridFor(std::int64_t n)
{
    const std::int64_t b = (n + kThreads - 1) / kThreads;
    return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}
} // namespace

void launchFusedElementwise(const FusedElementwiseArgs& a, cudaStream_t s)
{
    if (a.count == 0 || a.ops == 0)
        return;
    if (a.count <= (std::int64_t(1) << 30))
        fusedElementwiseKernel<int><<<gridFor(a.count), kThreads, 0, s>>>(a);
    else
        fusedElementwiseKernel<std::int64_t><<<gridFor(a.count), kThreads, 0, s>>>(a);
}

} // namespace costscope::cuda
