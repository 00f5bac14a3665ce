// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

namespace costscope {

// The time of a tiled GEMM kernel (the GPU backends' own matmul and implicit-GEMM conv shaders) in waves: the
// output splits into ceil(rows/tileM)·ceil(cols/tileN) tiles per group, `concurrentTiles` of them run at once, and each wave
// walks k in tileK-deep steps of stepNs, after fixedNs. Unlike a rate keyed by GEMM volume, this sees that a
// deep layer with few output tiles (ResNet's 7x7x512 convs at batch 1) leaves most of the GPU idle.
struct TileWaves {
    std::int64_t tileM = 0, tileN = 0, tileK = 0;
    double concurrentTiles = 0, stepNs = 0, fixedNs = 0;

    bool valid() const { return tileM > 0 && tileN > 0 && tileK > 0 && concurrentTiles >= 1 && stepNs > 0; }
    double ns(std::int64_t rows, std::int64_t k, std::int64_t cols, std::int64_t groups = 1) const;
};

// One timed kernel: its GEMM (rows and columns in the kernel's own tiling), groups, and nanoseconds.
struct TiledTiming {
    std::int64_t rows = 0, k = 0, cols = 0, groups = 1;
    double ns = 0;
};

// concurrentTiles, stepNs and fixedNs that explain `timings` best in relative error (weighted least squares for
// the two times at each count of concurrent tiles from 1 to maxConcurrent, the count of least error kept).
// Invalid (concurrentTiles 0) without at least three timings.
TileWaves fitTileWaves(const std::vector<TiledTiming>& timings, std::int64_t tileM, std::int64_t tileN,
                       std::int64_t tileK, int maxConcurrent = 4096);

} // namespace costscope
