// SPDX-License-Identifier: MIT
#include "analysis/tile_waves.h"

#include <algorithm>
#include <cmath>

namespace costscope {

namespace {
double ceilDiv(double a, double b)
{
    return std::ceil(a / b);
}

// Waves × k steps: the factor stepNs multiplies.
double stepCount(const TileWaves& w, std::int64_t rows, std::int64_t k, std::int64_t cols, std::int64_t groups)
{
    const double tiles = ceilDiv(double(std::max<std::int64_t>(rows, 1)), double(w.tileM))
                       * ceilDiv(double(std::max<std::int64_t>(cols, 1)), double(w.tileN))
                       * double(std::max<std::int64_t>(groups, 1));
    return ceilDiv(tiles, w.concurrentTiles) * ceilDiv(double(std::max<std::int64_t>(k, 1)), double(w.tileK));
}
} // namespace

double TileWaves::ns(std::int64_t rows, std::int64_t k, std::int64_t cols, std::int64_t groups) const
{
    return fixedNs + stepNs * stepCount(*this, rows, k, cols, groups);
}

TileWaves fitTileWaves(const std::vector<TiledTiming>& timings, std::int64_t tileM, std::int64_t tileN,
                       std::int64_t tileK, int maxConcurrent)
{
    TileWaves best{tileM, tileN, tileK, 0, 0, 0};
    if (timings.size() < 3 || tileM <= 0 || tileN <= 0 || tileK <= 0)
        return best;
    double bestError = INFINITY;
    for (int tiles = 1; tiles <= maxConcurrent; ++tiles) {
        TileWaves w{tileM, tileN, tileK, double(tiles), 1, 0};
        // Minimise Σ ((fixed + step·x - t) / t)²: normal equations in (fixed, step).
        double sw = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
        for (const TiledTiming& t : timings) {
            const double x = stepCount(w, t.rows, t.k, t.cols, t.groups), inv = 1.0 / std::max(t.ns, 1e-9);
            sw += inv * inv;
            sx += x * inv * inv;
            sxx += x * x * inv * inv;
            sy += inv;
            sxy += x * inv;
        }
        const double det = sw * sxx - sx * sx;
        double fixed = det != 0 ? (sy * sxx - sx * sxy) / det : 0, step = det != 0 ? (sw * sxy - sx * sy) / det : 0;
        if (fixed < 0 || det == 0) {
            fixed = 0;
            step = sxx > 0 ? sxy / sxx : 0;
        }
        if (step <= 0)
            continue;
        double error = 0;
        for (const TiledTiming& t : timings) {
            const double r = (fixed + step * stepCount(w, t.rows, t.k, t.cols, t.groups)) / t.ns - 1;
            error += r * r;
        }
        if (error < bestError) {
            bestError = error;
            best.concurrentTiles = tiles;
            best.stepNs = step;
            best.fixedNs = fixed;
        }
    }
    return best;
}

} // namespace costscope
