// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "calibration/conv_layers.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace costscope {

// Microbenchmark figures of one Vulkan device, for the cost model's calibration and the bench. Kernel figures
// come from GPU timestamps (the best of the repeats); the host-side ones from wall time (the median).
struct VulkanCalibration {
    std::string device;
    struct MatMulPoint {
        std::int64_t m = 0, k = 0, n = 0;
        double gflops = 0;
    };
    std::vector<MatMulPoint> matmul;   // the MatMul node over the shape grid
    std::vector<ConvPoint> conv;       // the backend's Conv (implicit GEMM) over the layers asked for
    double copyGBps = 0;           // copy.comp (Transpose with the identity permutation), bytes read + written
    double elementwiseGBps = 0;    // unary.comp (Relu), bytes read + written
    double bufferCopyGBps = 0;     // vkCmdCopyBuffer, the driver's own copy: the reference for the two above
    double dispatchOverheadUs = 0; // added per dispatch within one submission
    double roundtripUs = 0;        // submit + wait of one tiny dispatch
    double readbackGBps = 0;       // device to host through the staging buffer
};

struct VulkanCalibrationOptions {
    DeviceIndex device = 0;
    std::vector<std::int64_t> matmulSizes{128, 256, 512}; // square and (s, s/4, s) shapes
    bool squareOnly = false;                               // only the square shapes (the bench's figures)
    std::vector<ConvLayer> convLayers;                     // none: no Conv points
    std::int64_t copyElements = 1 << 22;
    std::int64_t warmupElements = 1 << 24; // the warm-up chain before each timed kernel (see warmupGraph)
    int repeats = 5;
    const std::atomic<bool>* cancel = nullptr;          // checked between figures
    std::function<void(int done, int total)> progress; // after each figure, on the calibrating thread
};

Result<VulkanCalibration> calibrateVulkan(const VulkanCalibrationOptions& options);
// What `costscope-cli calibrate --backend vulkan [--quick]` measures: quick keeps to shapes and layers a CPU-side
// driver (lavapipe) times in seconds.
VulkanCalibrationOptions vulkanCalibrationOptions(bool quick, DeviceIndex device);

} // namespace costscope
