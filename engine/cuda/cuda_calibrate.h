// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <cstdint>
#include <string>
#include <vector>

namespace costscope {

// Microbenchmark figures of one GPU, for the integrator to map onto a DeviceProfile.
struct CudaCalibration {
    struct GemmPoint {
        std::int64_t m = 0, n = 0, k = 0;
        double seconds = 0; // median of the timed calls
        double flopsPerSecond = 0;
    };
    std::string device;
    std::vector<GemmPoint> sgemm;         // cuBLAS fp32 over the shape grid, random data
    double copyBytesPerSecond = 0;        // device-to-device copy, bytes read + written
    double readBytesPerSecond = 0;        // a sum reduction over a large buffer, bytes read
    double launchOverheadSeconds = 0;     // per empty kernel, back-to-back on one stream
    double launchSyncSeconds = 0;         // one empty kernel plus stream synchronise, round trip
    double pinnedReadbackBytesPerSecond = 0;
    double pageableReadbackBytesPerSecond = 0;
};

struct CudaCalibrationOptions {
    std::vector<std::int64_t> gemmSizes = {256, 512, 1024, 2048, 4096}; // square and (s, s, s/4) shapes
    std::size_t bandwidthBytes = std::size_t(1) << 30;
    std::size_t readbackBytes = std::size_t(256) << 20;
    int repeats = 10;
};

Result<CudaCalibration> calibrateCuda(int device, const CudaCalibrationOptions& options = {});

} // namespace costscope
