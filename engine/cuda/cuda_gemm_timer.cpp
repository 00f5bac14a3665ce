// SPDX-License-Identifier: MIT
#include "cuda/cuda_gemm_timer.h"

#include "cuda/compute_capability.h"
#include "cuda/cuda_timing.h"
#include "cuda/fp8_matmul.h"
#include "ir/float_narrow.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace costscope {

namespace {

constexpr std::size_t kWorkspaceBytes = std::size_t(32) << 20;

Diagnostic cudaError(const std::string& what, cudaError_t e)
{
    return Diagnostic::error(what + ": " + cudaGetErrorString(e));
}

// Uniform values in [-1, 1] written as `precision`'s storage type (fp32 for fp32 and tf32).
std::vector<std::uint8_t> randomOperand(Precision precision, std::size_t elements, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    const std::size_t width = precision == Precision::Fp8                                    ? 1
                              : precision == Precision::Fp16 || precision == Precision::Bf16 ? 2
                                                                                             : 4;
    std::vector<std::uint8_t> out(elements * width);
    for (std::size_t i = 0; i < elements; ++i) {
        const float v = dist(rng);
        if (width == 1) {
            out[i] = floatToE4M3Bits(v);
        } else if (width == 2) {
            const std::uint16_t bits = precision == Precision::Fp16 ? floatToHalfBits(v) : floatToBf16Bits(v);
            std::memcpy(out.data() + 2 * i, &bits, 2);
        } else {
            std::memcpy(out.data() + 4 * i, &v, 4);
        }
    }
    return out;
}

} // namespace

Result<std::unique_ptr<CudaGemmTimer>> CudaGemmTimer::create(int device, std::size_t maxElements)
{
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
        return cudaError("no CUDA device " + std::to_string(device), e);
    std::unique_ptr<CudaGemmTimer> t(new CudaGemmTimer);
    t->m_capability = cuda::computeCapability(device);
    t->m_maxElements = maxElements;
    if (cudaError_t e = cudaStreamCreate(&t->m_stream); e != cudaSuccess)
        return cudaError("cannot create a stream", e);
    if (cublasCreate(&t->m_blas) != CUBLAS_STATUS_SUCCESS || cublasLtCreate(&t->m_lt) != CUBLAS_STATUS_SUCCESS)
        return Diagnostic::error("cannot initialise cuBLAS");
    cublasSetStream(t->m_blas, t->m_stream);
    for (void** p : {&t->m_a, &t->m_b, &t->m_c})
        if (cudaError_t e = cudaMalloc(p, maxElements * 4); e != cudaSuccess)
            return cudaError("out of GPU memory allocating the GEMM calibration buffers", e);
    if (cudaError_t e = cudaMalloc(&t->m_workspace, kWorkspaceBytes); e != cudaSuccess)
        return cudaError("out of GPU memory allocating the cuBLASLt workspace", e);
    // cuBLAS shares it (calls are ordered on the one stream), so that it never allocates inside a stream capture.
    cublasSetWorkspace(t->m_blas, t->m_workspace, kWorkspaceBytes);
    return t;
}

CudaGemmTimer::~CudaGemmTimer()
{
    for (void* p : {m_a, m_b, m_c, m_workspace})
        if (p)
            cudaFree(p);
    if (m_lt)
        cublasLtDestroy(m_lt);
    if (m_blas)
        cublasDestroy(m_blas);
    if (m_stream)
        cudaStreamDestroy(m_stream);
}

bool CudaGemmTimer::supports(Precision precision) const
{
    switch (precision) {
    case Precision::Fp32:
    case Precision::Fp16:
        return true;
    case Precision::Tf32:
    case Precision::Bf16:
        return m_capability >= 80;
    case Precision::Fp8:
        return m_capability >= 89;
    default:
        return false;
    }
}

Result<bool> CudaGemmTimer::launch(Precision precision, int m, int n, int k)
{
    if (precision == Precision::Fp8) {
        // E4M3 A[m,k] and Bᵀ[n,k] in the "TN" layout cuBLASLt's FP8 products need (cuda/fp8_matmul.h). The operands
        // are random, so B stored transposed changes no rate, only which values it holds.
        auto mm =
            cuda::Fp8Matmul::create(m_lt, {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, m, n, k}, kWorkspaceBytes);
        if (!mm)
            return Diagnostic::error("cuBLASLt FP8 matmul: " + mm.error().message);
        if (const cublasStatus_t status = (**mm)(m_stream, m_a, m_b, m_c, m_workspace); status != CUBLAS_STATUS_SUCCESS)
            return Diagnostic::error(std::string("cuBLASLt FP8 matmul failed: ") + cublasGetStatusString(status));
        return true;
    }
    const float one = 1.0f, zero = 0.0f;
    cudaDataType_t type = CUDA_R_32F;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    switch (precision) {
    case Precision::Tf32:
        compute = CUBLAS_COMPUTE_32F_FAST_TF32;
        break;
    case Precision::Fp16:
        type = CUDA_R_16F;
        break;
    case Precision::Bf16:
        type = CUDA_R_16BF;
        break;
    default:
        break;
    }
    const cublasStatus_t status = cublasGemmEx(m_blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, m_b, type, n, m_a, type,
                                               k, &zero, m_c, type, n, compute, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS)
        return Diagnostic::error(std::string("cublasGemmEx (") + std::string(precisionName(precision))
                                 + ") failed: " + cublasGetStatusString(status));
    return true;
}

Result<double> CudaGemmTimer::seconds(Precision precision, std::int64_t m, std::int64_t n, std::int64_t k, int repeats)
{
    if (!supports(precision))
        return Diagnostic::error("precision " + std::string(precisionName(precision))
                                 + ": no cuBLAS product on compute capability " + std::to_string(m_capability / 10)
                                 + "." + std::to_string(m_capability % 10));
    const auto most = static_cast<std::size_t>(std::max({m * k, k * n, m * n}));
    if (most > m_maxElements)
        return Diagnostic::error("GEMM " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n)
                                 + " is larger than the calibration buffers");
    for (auto [dst, elements, seed] :
         {std::tuple{m_a, std::size_t(m * k), 1u}, std::tuple{m_b, std::size_t(k * n), 2u}}) {
        const auto host = randomOperand(precision, elements, seed);
        if (cudaError_t e = cudaMemcpy(dst, host.data(), host.size(), cudaMemcpyHostToDevice); e != cudaSuccess)
            return cudaError("calibration upload failed", e);
    }
    if (auto first = launch(precision, int(m), int(n), int(k)); !first)
        return first.error();
    // As a plan runs it (one call of a replayed CUDA graph), not with the host's launch of each call inside.
    const double s = cuda::timeReplayedOnStream(m_stream, repeats, cuda::callsPerGraph(2.0 * double(m * n * k)),
                                                [&] { (void)launch(precision, int(m), int(n), int(k)); });
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        return cudaError("GEMM calibration failed", e);
    return s;
}

} // namespace costscope
