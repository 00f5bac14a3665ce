// SPDX-License-Identifier: MIT
// Attention with key/value tiles shared by a block of query rows (head dims up to 128). A block holds kRows
// consecutive query rows of one (batch, head), one warp each; per chunk of 32 keys the block stages K and V in
// shared memory once and every warp reads them from there. The warp-per-row kernel (attention.cu) reads each key
// and value row once per query row from L2: at GPT-2's shapes on an H100/H200 that traffic, not arithmetic, set
// its time. Within a warp the work is the same as there: a lane per key for the scores, one max and one sum per
// chunk (online softmax), then the lanes accumulate the chunk's values over the head dim. Semantics as
// attention.cu (masks, soft cap, grouped KV heads, strides).
#include "cuda/attention_tiled.h"

#include "cuda/attention_score.cuh"

#include <cstdint>

namespace costscope::cuda {

namespace {
constexpr int kRows = 8;   // query rows (warps) per block: each staged key and value row serves 8 queries
constexpr int kChunk = 32; // keys per staged tile, one per lane

template <int PerLane>
__global__ void attentionTiledKernel(AttentionArgs a, std::int64_t tilesPerHead)
{
    constexpr int kDim = 32 * PerLane;
    __shared__ float kTile[kChunk][kDim + 1]; // +1: lane j reads row j, so rows must start in different banks
    __shared__ float vTile[kChunk][kDim];
    __shared__ float qRows[kRows][kDim];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const std::int64_t tile = blockIdx.x % tilesPerHead, bh = blockIdx.x / tilesPerHead;
    const std::int64_t h = bh % a.heads, b = bh / a.heads;
    const std::int64_t i = tile * kRows + warp; // this warp's query row
    const bool rowValid = i < a.sq;
    const std::int64_t kvBase = b * a.kvStrides[0] + (h / a.kvGroup) * a.kvStrides[1];
    const std::int64_t qRow = b * a.qStrides[0] + h * a.qStrides[1] + i * a.qStrides[2];
    for (int t = 0; t < PerLane; ++t) {
        const std::int64_t d = lane + 32 * t;
        qRows[warp][d] = rowValid && d < a.headDim ? attentionLoad(a.q, a.storage, qRow + d) : 0.0f;
    }
    // The block walks the union of its rows' key ranges; each warp masks the keys outside its own.
    std::int64_t myBegin = 0, myEnd = 0, blockBegin = 0, blockEnd = 0, unused = 0;
    attentionKeyRange(a, i, myBegin, myEnd);
    attentionKeyRange(a, tile * kRows, blockBegin, unused);
    const std::int64_t lastRow = (tile + 1) * kRows - 1 < a.sq ? (tile + 1) * kRows - 1 : a.sq - 1;
    attentionKeyRange(a, lastRow, unused, blockEnd);
    float acc[PerLane];
    for (int t = 0; t < PerLane; ++t)
        acc[t] = 0.0f;
    float m = -INFINITY, l = 0.0f;
    for (std::int64_t j0 = blockBegin; j0 < blockEnd; j0 += kChunk) {
        __syncthreads(); // the previous tile is no longer read
        for (int e = threadIdx.x; e < kChunk * kDim; e += blockDim.x) {
            const int r = e / kDim, d = e % kDim;
            const std::int64_t j = j0 + r;
            const bool in = j < a.sk && d < a.headDim;
            kTile[r][d] = in ? attentionLoad(a.k, a.storage, kvBase + j * a.kvStrides[2] + d) : 0.0f;
            vTile[r][d] = in ? attentionLoad(a.v, a.storage, kvBase + j * a.kvStrides[2] + d) : 0.0f;
        }
        __syncthreads();
        if (!rowValid)
            continue;
        const std::int64_t j = j0 + lane;
        float s = -INFINITY;
        if (j >= myBegin && j < myEnd) {
            float dot = 0.0f;
            for (int d = 0; d < kDim; ++d) // zero-padded past the head dim
                dot += qRows[warp][d] * kTile[lane][d];
            s = attentionScore(a, b, h, i, j, dot);
        }
        float chunkMax = s;
        for (int o = 16; o > 0; o >>= 1)
            chunkMax = fmaxf(chunkMax, __shfl_xor_sync(0xffffffffu, chunkMax, o));
        const float mNew = fmaxf(m, chunkMax);
        if (mNew == -INFINITY) // every key so far masked out for this row (the same in every lane)
            continue;
        const float corr = expf(m - mNew);
        const float p = s == -INFINITY ? 0.0f : expf(s - mNew);
        float pSum = p;
        for (int o = 16; o > 0; o >>= 1)
            pSum += __shfl_xor_sync(0xffffffffu, pSum, o);
        l = l * corr + pSum;
        for (int t = 0; t < PerLane; ++t)
            acc[t] *= corr;
        for (int jj = 0; jj < kChunk; ++jj) {
            const float pj = __shfl_sync(0xffffffffu, p, jj);
            if (pj == 0.0f) // the same in every lane: the warp skips a masked key
                continue;
            for (int t = 0; t < PerLane; ++t)
                acc[t] += pj * vTile[jj][lane + 32 * t];
        }
        m = mNew;
    }
    if (!rowValid)
        return;
    const std::int64_t oRow = b * a.oStrides[0] + h * a.oStrides[1] + i * a.oStrides[2];
    for (int t = 0; t < PerLane; ++t) {
        const std::int64_t d = lane + 32 * t;
        if (d < a.headDim)
            attentionStore(a.out, a.storage, oRow + d, l > 0.0f ? acc[t] / l : 0.0f);
    }
}

template <int PerLane>
void launchTiled(const AttentionArgs& a, cudaStream_t s)
{
    const std::int64_t tilesPerHead = (a.sq + kRows - 1) / kRows;
    const auto blocks = static_cast<unsigned>(a.batch * a.heads * tilesPerHead);
    attentionTiledKernel<PerLane><<<blocks, kRows * 32, 0, s>>>(a, tilesPerHead);
}
} // namespace

bool launchAttentionTiled(const AttentionArgs& a, cudaStream_t s)
{
    // Shared memory per block: (2 * 32 + 8) rows of the head dim; 128 wide is 37 KB, inside the default 48 KB.
    if (a.headDim > 128 || a.batch * a.heads * ((a.sq + kRows - 1) / kRows) > 0x7fffffff)
        return false;
    if (a.headDim <= 32)
        launchTiled<1>(a, s);
    else if (a.headDim <= 64)
        launchTiled<2>(a, s);
    else
        launchTiled<4>(a, s);
    return true;
}

} // namespace costscope::cuda
