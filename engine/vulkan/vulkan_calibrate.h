// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <cstdint>
#include <string>
#include <vector>

namespace costscope {

// Microbenchmark figures of one Vulkan device, for the cost model's calibration and the bench. Kernel figures
// come from GPU timestamps (the best of the repeats); the host-side ones from wall time (the median).
struct VulkanCalibration {
    std::string device;
    struct MatMulPoint {
        std::int64_t size = 0; // M = N = K
        double gflops = 0;
    };
    std::vector<MatMulPoint> matmul;
    double copyGBps = 0;           // copy.comp (Transpose with the identity permutation), bytes read + written
    double elementwiseGBps = 0;    // unary.comp (Relu), bytes read + written
    double bufferCopyGBps = 0;     // vkCmdCopyBuffer, the driver's own copy: the reference for the two above
    double dispatchOverheadUs = 0; // added per dispatch within one submission
    double roundtripUs = 0;        // submit + wait of one tiny dispatch
    double readbackGBps = 0;       // device to host through the staging buffer
};

struct VulkanCalibrationOptions {
    DeviceIndex device = 0;
    std::vector<std::int64_t> matmulSizes{128, 256, 512};
    std::int64_t copyElements = 1 << 22;
    int repeats = 5;
};

Result<VulkanCalibration> calibrateVulkan(const VulkanCalibrationOptions& options);

} // namespace costscope
