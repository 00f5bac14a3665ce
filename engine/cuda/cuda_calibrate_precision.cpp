// SPDX-License-Identifier: MIT
#include "cuda/cuda_calibrate.h"
#include "cuda/cuda_gemm_timer.h"

#include <algorithm>

namespace costscope {

namespace {

// The grid in one precision; the first failure leaves the precision out.
Result<std::vector<CudaCalibration::GemmPoint>> gemmGrid(CudaGemmTimer& timer, Precision p,
                                                         const CudaCalibrationOptions& o)
{
    std::vector<CudaCalibration::GemmPoint> points;
    for (std::int64_t size : o.gemmSizes)
        for (std::int64_t k : {size, std::max<std::int64_t>(size / 4, 16)}) {
            auto s = timer.seconds(p, size, size, k, o.repeats);
            if (!s)
                return s.error();
            points.push_back({size, size, k, *s, 2.0 * double(size) * double(size) * double(k) / *s});
        }
    return points;
}

} // namespace

void calibrateCudaPrecisions(int device, const CudaCalibrationOptions& o, CudaCalibration& out)
{
    const std::int64_t maxSize = *std::max_element(o.gemmSizes.begin(), o.gemmSizes.end());
    auto timer = CudaGemmTimer::create(device, static_cast<std::size_t>(maxSize * maxSize));
    if (!timer) {
        out.precisionNotes.push_back("no per-precision GEMMs: " + timer.error().message);
        return;
    }
    for (Precision p : {Precision::Tf32, Precision::Fp16, Precision::Bf16, Precision::Fp8}) {
        if (!(*timer)->supports(p)) {
            out.precisionNotes.push_back(std::string(precisionName(p)) + ": not on this GPU");
            continue;
        }
        if (auto grid = gemmGrid(**timer, p, o))
            out.gemmByPrecision[p] = std::move(*grid);
        else
            out.precisionNotes.push_back(std::string(precisionName(p)) + ": " + grid.error().message);
    }
}

} // namespace costscope
