// SPDX-License-Identifier: MIT
// Attention as FlashAttention-2 tiles it, in fp32 on the CUDA cores: a block takes BQ query rows of one (batch,
// head) and walks the keys 64 at a time. Per key tile it stages K and V in shared memory, computes the BQ×64 scores
// with each thread holding a 4×4 register tile of them (4 query rows × 4 keys), updates each row's online softmax
// across the 16 threads that share the row, writes the probabilities to shared memory and adds P·V into a 4×4
// register tile of the output (4 rows × 4 head-dim columns). Each shared value read feeds 4 FMAs, where the tiled
// kernel (attention_tiled.cu: a warp per query row, a lane per key) spends one read per FMA.
// Shared memory is laid out so that each operand of the inner products is one 16-byte read: Q and P transposed
// (a head dim's, or a key's, BQ rows side by side), K transposed, V as it is, a thread's 4 rows, keys and columns
// adjacent. With 4-byte reads (the first version) the two inner loops issued 8 shared reads per 16 FMAs and were
// bound by shared memory: GPT-2 small's attention at batch 8 took 52.6 us a layer on an H200 against 22.5 us for
// PyTorch's memory-efficient attention (CUTLASS, fp32) in the same call.
// Why hand-written: cuDNN's SDPA graphs are fp16/bf16 only and cuBLAS cannot keep the softmax on chip. Semantics
// as the other kernels (attention_score.cuh: masks, soft cap, grouped KV heads, strides).
#include "cuda/attention_flash.h"
#include "cuda/attention_score.cuh"

#include <atomic>
#include <cstdint>

namespace costscope::cuda {

namespace {
constexpr int kD = 64;              // head dims up to 64 (zero-padded)
constexpr int kKeys = 64;           // keys per staged tile
constexpr int kKStride = kKeys + 4; // row strides of the transposed tiles: a multiple of 4 (16-byte rows) and 4
                                    // more than a multiple of 32, so that the staging stores hit 32 banks

template <int BQ>
constexpr int rowStride()
{
    return BQ + 4;
}

template <int BQ>
constexpr int sharedFloats()
{
    return kD * rowStride<BQ>() + kD * kKStride + kKeys * kD + kKeys * rowStride<BQ>();
}

// Element e of a [rows][kD] tile staged transposed: a warp takes 4 rows × 8 head dims, so that its global reads
// are 4 runs of 32 bytes and its stores to [d][stride] (stride 4 past a multiple of 32) land in 32 different banks.
__device__ inline void transposedSlot(int e, int& row, int& d)
{
    const int lane = e & 31, warp = e >> 5;
    d = (warp & 7) * 8 + (lane >> 2);
    row = (warp >> 3) * 4 + (lane & 3);
}

__device__ inline float4 load4(const float* p)
{
    return *reinterpret_cast<const float4*>(p);
}

// At least two blocks an SM: with the thread count alone ptxas kept the kernel to 80 registers and spilled.
template <int BQ>
__global__ void __launch_bounds__(BQ * 4, 2) attentionFlashKernel(AttentionArgs a, std::int64_t tilesPerHead)
{
    extern __shared__ __align__(16) float shared[];
    constexpr int kQ = rowStride<BQ>();
    float* qt = shared;              // [kD][kQ]: the block's query rows, transposed
    float* kt = qt + kD * kQ;        // [kD][kKStride]: the key tile, transposed
    float* vs = kt + kD * kKStride;  // [kKeys][kD]: the value tile
    float* pt = vs + kKeys * kD;     // [kKeys][kQ]: the tile's probabilities, transposed
    const int tx = threadIdx.x % 16; // keys (and head-dim columns) 4 tx .. 4 tx + 3
    const int ty = threadIdx.x / 16; // query rows 4 ty .. 4 ty + 3
    const std::int64_t tile = blockIdx.x % tilesPerHead, bh = blockIdx.x / tilesPerHead;
    const std::int64_t h = bh % a.heads, b = bh / a.heads;
    const std::int64_t i0 = tile * BQ;
    const std::int64_t qBase = b * a.qStrides[0] + h * a.qStrides[1];
    const std::int64_t kvBase = b * a.kvStrides[0] + (h / a.kvGroup) * a.kvStrides[1];
    // Staging reads 4 elements into registers before it stores them to shared memory: q, k and v are generic
    // pointers the compiler must assume may alias the shared tiles, so a load after a store waits for it, and the
    // loads would go to L2 one after another (16 of K and 16 of V a thread and tile). All 16 at once would need
    // over 200 registers.
    // Elements a thread stages: of a K or a V tile (16 with 64 query rows a block, 32 with 32), and of the block's
    // BQ query rows (always 16: the Q tile has BQ rows, the K tile kKeys).
    constexpr int kPerThread = kKeys * kD / (BQ * 4);
    constexpr int kQPerThread = BQ * kD / (BQ * 4);
    constexpr int kChunk = 4;
#pragma unroll 1
    for (int u0 = 0; u0 < kQPerThread; u0 += kChunk) {
        float staged[kChunk];
#pragma unroll
        for (int u = 0; u < kChunk; ++u) {
            int r = 0, d = 0;
            transposedSlot(int(threadIdx.x) + (u0 + u) * BQ * 4, r, d);
            const std::int64_t i = i0 + r;
            staged[u] = i < a.sq && d < a.headDim ? attentionLoad(a.q, a.storage, qBase + i * a.qStrides[2] + d) : 0.0f;
        }
#pragma unroll
        for (int u = 0; u < kChunk; ++u) {
            int r = 0, d = 0;
            transposedSlot(int(threadIdx.x) + (u0 + u) * BQ * 4, r, d);
            qt[d * kQ + r] = staged[u];
        }
    }
    // The block walks the union of its rows' key ranges; each row masks the keys outside its own.
    std::int64_t blockBegin = 0, blockEnd = 0, unused = 0;
    attentionKeyRange(a, i0, blockBegin, unused);
    attentionKeyRange(a, i0 + BQ - 1 < a.sq ? i0 + BQ - 1 : a.sq - 1, unused, blockEnd);
    std::int64_t rowBegin[4], rowEnd[4];
    for (int r = 0; r < 4; ++r)
        attentionKeyRange(a, i0 + 4 * ty + r, rowBegin[r], rowEnd[r]);
    float o[4][4], m[4], l[4];
    for (int r = 0; r < 4; ++r) {
        m[r] = -INFINITY;
        l[r] = 0.0f;
        for (int c = 0; c < 4; ++c)
            o[r][c] = 0.0f;
    }
    for (std::int64_t j0 = blockBegin; j0 < blockEnd; j0 += kKeys) {
        __syncthreads(); // the previous tile's K, V and P are no longer read
#pragma unroll 1
        for (int u0 = 0; u0 < kPerThread; u0 += kChunk) {
            float staged[2][kChunk];
#pragma unroll
            for (int u = 0; u < kChunk; ++u) {
                const int e = int(threadIdx.x) + (u0 + u) * BQ * 4;
                int r = 0, d = 0;
                transposedSlot(e, r, d);
                const std::int64_t j = j0 + r;
                staged[0][u] =
                    j < a.sk && d < a.headDim ? attentionLoad(a.k, a.storage, kvBase + j * a.kvStrides[2] + d) : 0.0f;
                // V keeps its layout: consecutive threads take consecutive head dims of one key.
                const std::int64_t vj = j0 + e / kD;
                staged[1][u] = vj < a.sk && e % kD < a.headDim
                                   ? attentionLoad(a.v, a.storage, kvBase + vj * a.kvStrides[2] + e % kD)
                                   : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < kChunk; ++u) {
                const int e = int(threadIdx.x) + (u0 + u) * BQ * 4;
                int r = 0, d = 0;
                transposedSlot(e, r, d);
                kt[d * kKStride + r] = staged[0][u];
                vs[e] = staged[1][u]; // [kKeys][kD] row-major: element e is key e / kD, dim e % kD
            }
        }
        __syncthreads();
        float s[4][4] = {};
#pragma unroll 16
        for (int d = 0; d < kD; ++d) {
            const float4 q4 = load4(qt + d * kQ + 4 * ty);
            const float4 k4 = load4(kt + d * kKStride + 4 * tx);
            const float qa[4] = {q4.x, q4.y, q4.z, q4.w}, kb[4] = {k4.x, k4.y, k4.z, k4.w};
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 4; ++c)
                    s[r][c] += qa[r] * kb[c];
        }
        float p[4][4];
        for (int r = 0; r < 4; ++r) {
            const std::int64_t i = i0 + 4 * ty + r;
            float rowMax = -INFINITY;
            for (int c = 0; c < 4; ++c) {
                const std::int64_t j = j0 + 4 * tx + c;
                s[r][c] = j >= rowBegin[r] && j < rowEnd[r] ? attentionScore(a, b, h, i, j, s[r][c]) : -INFINITY;
                rowMax = fmaxf(rowMax, s[r][c]);
            }
            // The 16 threads of a row are one half of a warp: offsets below 16 stay inside it.
            for (int off = 8; off > 0; off >>= 1)
                rowMax = fmaxf(rowMax, __shfl_xor_sync(0xffffffffu, rowMax, off));
            const float mNew = fmaxf(m[r], rowMax);
            // Every key so far masked out (a row past the last query, or a hidden prefix): nothing to add yet.
            const float corr = mNew == -INFINITY ? 1.0f : expf(m[r] - mNew);
            float rowSum = 0.0f;
            for (int c = 0; c < 4; ++c) {
                p[r][c] = s[r][c] == -INFINITY ? 0.0f : expf(s[r][c] - mNew);
                rowSum += p[r][c];
            }
            for (int off = 8; off > 0; off >>= 1)
                rowSum += __shfl_xor_sync(0xffffffffu, rowSum, off);
            l[r] = l[r] * corr + rowSum;
            for (int c = 0; c < 4; ++c)
                o[r][c] *= corr;
            m[r] = mNew;
        }
        for (int c = 0; c < 4; ++c)
            *reinterpret_cast<float4*>(pt + (4 * tx + c) * kQ + 4 * ty) = make_float4(p[0][c], p[1][c], p[2][c], p[3][c]);
        __syncthreads();
#pragma unroll 16
        for (int j = 0; j < kKeys; ++j) {
            const float4 p4 = load4(pt + j * kQ + 4 * ty);
            const float4 v4 = load4(vs + j * kD + 4 * tx);
            const float pa[4] = {p4.x, p4.y, p4.z, p4.w}, vb[4] = {v4.x, v4.y, v4.z, v4.w};
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 4; ++c)
                    o[r][c] += pa[r] * vb[c];
        }
    }
    for (int r = 0; r < 4; ++r) {
        const std::int64_t i = i0 + 4 * ty + r;
        if (i >= a.sq)
            continue;
        const std::int64_t row = b * a.oStrides[0] + h * a.oStrides[1] + i * a.oStrides[2];
        for (int c = 0; c < 4; ++c) {
            const int d = 4 * tx + c;
            if (d < a.headDim)
                attentionStore(a.out, a.storage, row + d, l[r] > 0.0f ? o[r][c] / l[r] : 0.0f);
        }
    }
}

template <int BQ>
void launchFlash(const AttentionArgs& a, std::int64_t tilesPerHead, cudaStream_t s)
{
    constexpr auto bytes = static_cast<int>(sharedFloats<BQ>() * sizeof(float));
    static std::atomic<bool> optedIn[kMaxOptInDevices] = {};
    optInSharedMemory(attentionFlashKernel<BQ>, bytes, optedIn);
    const auto blocks = static_cast<unsigned>(a.batch * a.heads * tilesPerHead);
    attentionFlashKernel<BQ><<<blocks, BQ * 4, bytes, s>>>(a, tilesPerHead);
}
} // namespace

bool launchAttentionFlash(const AttentionArgs& a, FlashRows rows, cudaStream_t s)
{
    if (a.headDim > kD || a.batch * a.heads * ((a.sq + 31) / 32) > 0x7fffffff)
        return false;
    if (rows == FlashRows::Auto) {
        // A block walks its key tiles one after another: with fewer blocks than a large GPU has SMs (132) the
        // tiled kernel's many small blocks finish first. Measured on an H100 (bench_cuda_fusion --quick): GPT-2
        // small's attention at batch 8 (192 blocks of 64 rows) 45.2 us here against 70.2 us tiled (32 rows a
        // block: 48.2 us); the small cases (a few blocks) 20.7-21.1 us here against 9.3-12.2 us tiled.
        if (a.batch * a.heads * ((a.sq + 63) / 64) < 132)
            return false;
        rows = FlashRows::Rows64;
    }
    if (rows == FlashRows::Rows64)
        launchFlash<64>(a, (a.sq + 63) / 64, s);
    else
        launchFlash<32>(a, (a.sq + 31) / 32, s);
    return true;
}

} // namespace costscope::cuda
