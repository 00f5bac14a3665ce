// SPDX-License-Identifier: MIT
#pragma once

#include "calibration/conv_layers.h"
#include "ir/diagnostic.h"
#include "ir/precision.h"

#include <cstdint>
#include <map>
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
    // One Conv node of the backend's own lowering (im2col + cuBLAS), timed as the plan runs it.
    using ConvPoint = costscope::ConvPoint;
    std::string device;
    std::vector<GemmPoint> sgemm;         // cuBLAS fp32 over the shape grid, random data
    // The same grid in tf32, fp16, bf16 and fp8 (cuda_gemm_timer.h), where the GPU runs them.
    std::map<Precision, std::vector<GemmPoint>> gemmByPrecision;
    std::vector<std::string> precisionNotes; // a precision left out, and why
    std::vector<ConvPoint> conv;          // the CUDA backend's Conv over typical CNN layers (im2col rate fit)
    double copyBytesPerSecond = 0;        // device-to-device copy, bytes read + written
    double readBytesPerSecond = 0;        // a sum reduction over a large buffer, bytes read
    double launchOverheadSeconds = 0;     // per empty kernel, back-to-back on one stream
    double graphKernelSeconds = 0;        // per empty kernel inside a replayed CUDA graph (the plain run's mode)
    double launchSyncSeconds = 0;         // one empty kernel plus stream synchronise, round trip
    double pinnedReadbackBytesPerSecond = 0;
    double pageableReadbackBytesPerSecond = 0;
};

struct CudaCalibrationOptions {
    std::vector<std::int64_t> gemmSizes = {256, 512, 1024, 2048, 4096}; // square and (s, s, s/4) shapes
    std::size_t bandwidthBytes = std::size_t(1) << 30;
    std::size_t readbackBytes = std::size_t(256) << 20;
    int repeats = 10;
    bool convolutions = true; // time the backend's Conv over the layer grid
    bool precisions = true;   // time the GEMM grid in every precision the GPU has (gemmByPrecision)
};

Result<CudaCalibration> calibrateCuda(int device, const CudaCalibrationOptions& options = {});
// The GEMM grid (square and (s, s, s/4) shapes) in each reduced precision the GPU runs.
void calibrateCudaPrecisions(int device, const CudaCalibrationOptions& options, CudaCalibration& out);
// The Conv points alone (median of `repeats` instrumented runs per layer); calibrateCuda calls it.
Result<std::vector<CudaCalibration::ConvPoint>> calibrateCudaConv(int device, int repeats);

} // namespace costscope
