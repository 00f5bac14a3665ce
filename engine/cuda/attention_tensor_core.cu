// SPDX-License-Identifier: MIT
// Attention for F16/BF16 storage on the tensor cores, tiled as FlashAttention-2 tiles it: a block owns 64 query
// rows of one (batch, head), 16 per warp, and walks the keys 64 at a time. Per key tile the block stages K and V in
// shared memory (16-bit, as stored); each warp takes its 16x64 scores S = Q K^T with 16x16x16 wmma fragments (16-bit
// inputs, F32 accumulation), its rows' online softmax in F32 (two lanes per row), writes the probabilities in the
// storage type and adds P V to its output rows with wmma again (F32 accumulation). The accumulator fragments'
// layout is opaque, so the scores and the output rows live in shared memory (F32) between the tensor-core steps,
// where the lanes rescale each output row by exp(m_old - m_new) before the tile's P V is added. The row sums add
// the probabilities as rounded, so that each output row is normalised by what P V multiplied.
// Why hand-written: cuDNN's SDPA (the graph API's scaled-dot-product-attention node) is the alternative on Hopper,
// but it is reached through the cudnn_frontend headers, which no package here provides. The scalar kernels
// (attention_flash.cu, attention_tiled.cu) took about 10x cuDNN's time at GPT-2's shapes in bf16 on an H100
// (51 us against 4.9 us a layer at width 768, batch 8, sequence 128).
// Semantics as the other kernels (attention_score.cuh): scale, soft cap, causal, window and input masks (Bool, or
// additive in F32/F16/BF16), grouped KV heads, strided layouts.
#include "cuda/attention_score.cuh"
#include "cuda/attention_tensor_core.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <atomic>
#include <cstdint>

namespace costscope::cuda {

namespace {
namespace wmma = nvcuda::wmma;

constexpr int kRows = kTensorCoreRows;
constexpr int kKeys = kTensorCoreKeys;
static_assert(kRows == kKeys, "tensorCoreAttentionSharedBytes sizes the q, k and v tiles alike");
constexpr int kWarps = kRows / 16;
constexpr int kThreads = kWarps * 32;
constexpr int kScoreStride = kKeys + 4; // F32 rows: wmma takes strides in multiples of 16 bytes
constexpr int kProbStride = kKeys + 8;  // 16-bit rows
constexpr float kLog2e = 1.4426950408889634f;

using Accumulator = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;
template <typename T>
using RowFragment = wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major>;

// acc += A B over Steps 16-deep steps: A's 16x16 blocks given, B's loaded from `b` (`BLayout`, leading dimension
// ldm), bStep elements apart.
template <typename BLayout, typename T, int Steps>
__device__ inline void multiplyAdd(Accumulator& acc, const RowFragment<T> (&aBlocks)[Steps], const T* b, int bStep,
                                   unsigned ldm)
{
#pragma unroll
    for (int kk = 0; kk < Steps; ++kk) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, T, BLayout> bBlock;
        wmma::load_matrix_sync(bBlock, b + kk * bStep, ldm);
        wmma::mma_sync(acc, aBlocks[kk], bBlock, acc);
    }
}

// Rows [first, first + kRows) of q, k or v (16-bit elements from `base`, rows `rowStride` apart) into a
// [kRows][W + 8] tile, zeros past row `limit` and past the head dim (a multiple of 16, so an 8-element chunk is all
// in or all out). 16-byte loads where the layout keeps every chunk 16-byte aligned (vec), else one element at a time.
template <typename T, int W>
__device__ void stageTile(T* tile, const float* data, std::int64_t base, std::int64_t rowStride, std::int64_t first,
                          std::int64_t limit, std::int64_t headDim, bool vec)
{
    constexpr int kChunks = W / 8;
    const auto* src = reinterpret_cast<const unsigned short*>(data);
    for (int e = threadIdx.x; e < kRows * kChunks; e += kThreads) {
        const int r = e / kChunks, c = e % kChunks;
        const std::int64_t row = first + r;
        uint4 chunk = make_uint4(0, 0, 0, 0);
        if (row < limit && 8 * c < headDim) {
            const std::int64_t at = base + row * rowStride + 8 * c;
            if (vec) {
                chunk = *reinterpret_cast<const uint4*>(src + at);
            } else {
                unsigned int pair[4];
                for (int k = 0; k < 4; ++k)
                    pair[k] = unsigned(src[at + 2 * k]) | unsigned(src[at + 2 * k + 1]) << 16;
                chunk = make_uint4(pair[0], pair[1], pair[2], pair[3]);
            }
        }
        *reinterpret_cast<uint4*>(tile + r * (W + 8) + 8 * c) = chunk;
    }
}

template <typename T, int W>
__global__ void __launch_bounds__(kThreads)
    attentionTensorCoreKernel(AttentionArgs a, std::int64_t tilesPerHead, bool vec)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 // bf16 fragments; the host launches nothing on older GPUs
    constexpr int kStride = W + 8;    // q, k and v rows (16-bit)
    constexpr int kOutStride = W + 4; // output rows (F32)
    extern __shared__ __align__(128) unsigned char shared[];
    T* qs = reinterpret_cast<T*>(shared);                    // [kRows][kStride]
    T* ks = qs + kRows * kStride;                            // [kKeys][kStride]
    T* vs = ks + kKeys * kStride;                            // [kKeys][kStride]
    float* ss = reinterpret_cast<float*>(vs + kKeys * kStride); // [kRows][kScoreStride]: the tile's raw scores
    T* ps = reinterpret_cast<T*>(ss + kRows * kScoreStride);  // [kRows][kProbStride]: the tile's probabilities
    float* os = reinterpret_cast<float*>(ps + kRows * kProbStride); // [kRows][kOutStride]: unnormalised output
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const std::int64_t tile = blockIdx.x % tilesPerHead, bh = blockIdx.x / tilesPerHead;
    const std::int64_t h = bh % a.heads, b = bh / a.heads;
    const std::int64_t i0 = tile * kRows;
    const std::int64_t qBase = b * a.qStrides[0] + h * a.qStrides[1];
    const std::int64_t kvBase = b * a.kvStrides[0] + (h / a.kvGroup) * a.kvStrides[1];
    stageTile<T, W>(qs, a.q, qBase, a.qStrides[2], i0, a.sq, a.headDim, vec);

    // This warp's rows start at warpRow; lanes 2 r and 2 r + 1 take row r's softmax (keys 2 t and 2 t + 1).
    const std::int64_t warpRow = i0 + 16 * warp;
    const bool warpActive = warpRow < a.sq;
    const int r = lane / 2, side = lane % 2;
    const std::int64_t row = warpRow + r;
    std::int64_t rowBegin = 0, rowEnd = 0, unused = 0; // a row past the last query sees no key
    if (row < a.sq)
        attentionKeyRange(a, row, rowBegin, rowEnd);
    // The block walks the union of its rows' key ranges; a warp skips the tiles none of its rows sees.
    std::int64_t blockBegin = 0, blockEnd = 0, warpBegin = 0, warpEnd = 0;
    attentionKeyRange(a, i0, blockBegin, unused);
    attentionKeyRange(a, i0 + kRows - 1 < a.sq ? i0 + kRows - 1 : a.sq - 1, unused, blockEnd);
    attentionKeyRange(a, warpRow, warpBegin, unused);
    attentionKeyRange(a, warpRow + 15 < a.sq ? warpRow + 15 : a.sq - 1, unused, warpEnd);

    float* oRows = os + 16 * warp * kOutStride;
    float* sRows = ss + 16 * warp * kScoreStride;
    T* pRows = ps + 16 * warp * kProbStride;
    for (int e = lane; e < 16 * kOutStride; e += 32)
        oRows[e] = 0.0f;
    float m = -INFINITY, l = 0.0f; // row r's running max (log2 units) and sum, the same in both of its lanes
    __syncthreads();               // q staged
    RowFragment<T> qFrag[W / 16];
#pragma unroll
    for (int kk = 0; kk < W / 16; ++kk)
        wmma::load_matrix_sync(qFrag[kk], qs + 16 * warp * kStride + 16 * kk, kStride);

    for (std::int64_t j0 = blockBegin; j0 < blockEnd; j0 += kKeys) {
        __syncthreads(); // the previous tile's k and v are no longer read
        stageTile<T, W>(ks, a.k, kvBase, a.kvStrides[2], j0, a.sk, a.headDim, vec);
        stageTile<T, W>(vs, a.v, kvBase, a.kvStrides[2], j0, a.sk, a.headDim, vec);
        __syncthreads();
        if (!warpActive || j0 >= warpEnd || j0 + kKeys <= warpBegin)
            continue; // every score of the tile would be masked: nothing changes for these rows
        // S = Q K^T: K's rows read as the columns of a column-major K^T.
#pragma unroll
        for (int c = 0; c < kKeys / 16; ++c) {
            Accumulator acc;
            wmma::fill_fragment(acc, 0.0f);
            multiplyAdd<wmma::col_major>(acc, qFrag, ks + 16 * c * kStride, 16, kStride);
            wmma::store_matrix_sync(sRows + 16 * c, acc, kScoreStride, wmma::mem_row_major);
        }
        __syncwarp();
        float s[kKeys / 2];
        float tileMax = -INFINITY;
#pragma unroll
        for (int t = 0; t < kKeys / 2; ++t) {
            const int c = 2 * t + side;
            const std::int64_t j = j0 + c;
            s[t] = j >= rowBegin && j < rowEnd ? attentionScore(a, b, h, row, j, sRows[r * kScoreStride + c]) * kLog2e
                                               : -INFINITY;
            tileMax = fmaxf(tileMax, s[t]);
        }
        tileMax = fmaxf(tileMax, __shfl_xor_sync(0xffffffffu, tileMax, 1));
        const float mNew = fmaxf(m, tileMax);
        // Every key so far masked out (a hidden prefix): nothing to add or rescale yet.
        const float corr = mNew == -INFINITY ? 1.0f : exp2f(m - mNew);
        float tileSum = 0.0f;
#pragma unroll
        for (int t = 0; t < kKeys / 2; ++t) {
            const T p = T(s[t] == -INFINITY ? 0.0f : exp2f(s[t] - mNew)); // rounded to nearest
            pRows[r * kProbStride + 2 * t + side] = p;
            tileSum += float(p);
        }
        tileSum += __shfl_xor_sync(0xffffffffu, tileSum, 1);
        l = l * corr + tileSum;
        m = mNew;
        if (__any_sync(0xffffffffu, corr != 1.0f)) // some row's max moved: its output so far is rescaled
            for (int rr = 0; rr < 16; ++rr) {
                const float rowCorr = __shfl_sync(0xffffffffu, corr, 2 * rr);
                for (int d = lane; d < W; d += 32)
                    oRows[rr * kOutStride + d] *= rowCorr;
            }
        __syncwarp();
        // O += P V
        RowFragment<T> pFrag[kKeys / 16];
#pragma unroll
        for (int kk = 0; kk < kKeys / 16; ++kk)
            wmma::load_matrix_sync(pFrag[kk], pRows + 16 * kk, kProbStride);
#pragma unroll
        for (int n = 0; n < W / 16; ++n) {
            Accumulator acc;
            wmma::load_matrix_sync(acc, oRows + 16 * n, kOutStride, wmma::mem_row_major);
            multiplyAdd<wmma::row_major>(acc, pFrag, vs + 16 * n, 16 * kStride, kStride);
            wmma::store_matrix_sync(oRows + 16 * n, acc, kOutStride, wmma::mem_row_major);
        }
    }
    __syncwarp();
    if (!warpActive)
        return;
    T* out = reinterpret_cast<T*>(a.out);
    const std::int64_t oBase = b * a.oStrides[0] + h * a.oStrides[1];
    for (int rr = 0; rr < 16; ++rr) {
        const float rowSum = __shfl_sync(0xffffffffu, l, 2 * rr);
        const std::int64_t i = warpRow + rr;
        if (i >= a.sq) // the same in every lane
            break;
        const float inv = rowSum > 0.0f ? 1.0f / rowSum : 0.0f;
        for (int d = lane; d < a.headDim; d += 32)
            out[oBase + i * a.oStrides[2] + d] = T(oRows[rr * kOutStride + d] * inv);
    }
#endif
}

template <typename T, int W>
void launchTensorCore(const AttentionArgs& a, std::int64_t tilesPerHead, bool vec, cudaStream_t s)
{
    constexpr auto bytes = static_cast<int>(tensorCoreAttentionSharedBytes(W));
    static std::atomic<bool> optedIn[kMaxOptInDevices] = {};
    optInSharedMemory(attentionTensorCoreKernel<T, W>, bytes, optedIn);
    const auto blocks = static_cast<unsigned>(a.batch * a.heads * tilesPerHead);
    attentionTensorCoreKernel<T, W><<<blocks, kThreads, bytes, s>>>(a, tilesPerHead, vec);
}

template <typename T>
void launchWidth(int width, const AttentionArgs& a, std::int64_t tilesPerHead, bool vec, cudaStream_t s)
{
    if (width == 32)
        launchTensorCore<T, 32>(a, tilesPerHead, vec, s);
    else if (width == 64)
        launchTensorCore<T, 64>(a, tilesPerHead, vec, s);
    else
        launchTensorCore<T, 128>(a, tilesPerHead, vec, s);
}
} // namespace

bool launchAttentionTensorCore(const AttentionArgs& a, cudaStream_t s)
{
    int device = 0, major = 0, optIn = 0;
    if (cudaGetDevice(&device) != cudaSuccess
        || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess
        || cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
        return false;
    const int width = tensorCoreAttentionWidth(a.headDim, a.storage, major, static_cast<std::size_t>(optIn));
    const std::int64_t tilesPerHead = (a.sq + kRows - 1) / kRows;
    if (width == 0 || a.batch * a.heads * tilesPerHead > 0x7fffffff)
        return false;
    // 16-byte loads of 8 elements where every row and head of q, k and v starts 16-byte aligned.
    auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
    bool vec = aligned(a.q) && aligned(a.k) && aligned(a.v);
    for (int d = 0; d < 3; ++d)
        vec = vec && a.qStrides[d] % 8 == 0 && a.kvStrides[d] % 8 == 0;
    if (a.storage == ElemType::BF16)
        launchWidth<__nv_bfloat16>(width, a, tilesPerHead, vec, s);
    else
        launchWidth<__half>(width, a, tilesPerHead, vec, s);
    return true;
}

} // namespace costscope::cuda
