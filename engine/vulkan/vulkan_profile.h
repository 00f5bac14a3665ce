// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "vulkan/vulkan_calibrate.h"

#include <string>

namespace costscope {

// A Costscope device profile from Vulkan microbenchmarks, all through the backend's own shaders: the MatMul
// node's rates as the sgemm table (best = flat and peak), the im2col rate fitted to the measured Conv nodes
// (implicit GEMM gathers its columns as it goes, which costs as the column bytes do), the element-wise kernel's
// bandwidth as memory bandwidth, the per-dispatch cost inside one submission as dispatch, submit + wait as
// round trip, staging readback as host readback.
DeviceProfile profileFromVulkanCalibration(const VulkanCalibration& c, const std::string& name,
                                           const std::string& host, const std::string& date,
    const std::string& tool = "costscope-cli calibrate");

} // namespace costscope
