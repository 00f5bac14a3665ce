// SPDX-License-Identifier: MIT
#ifdef COSTSCOPE_HAVE_VULKAN
#include "calibration/vulkan_profile.h"

#include "analysis/gemm_rate.h"

#include <algorithm>

namespace costscope {

DeviceProfile profileFromVulkanCalibration(const VulkanCalibration& c, const std::string& name,
                                           const std::string& host, const std::string& date)
{
    DeviceProfile p;
    p.name = name;
    p.device = Device::Vulkan;
    p.description = "Vulkan " + c.device + ", measured with Costscope's own compute shaders";
    p.source = "calibrated on " + host + " " + date + " by costscope-cli calibrate";
    double best = 0;
    for (const VulkanCalibration::MatMulPoint& m : c.matmul) {
        p.sgemmTable.push_back({m.m, m.k, m.n, m.gflops});
        best = std::max(best, m.gflops);
    }
    p.sgemmGflops = best;
    p.peakGflops = best;
    p.im2colBw = fitIm2colRate(c.conv, GemmRate(p));
    p.memoryBw = c.elementwiseGBps;
    p.dispatchNs = c.dispatchOverheadUs * 1e3;
    p.roundtripNs = c.roundtripUs * 1e3;
    p.hostReadbackBw = c.readbackGBps;
    p.unifiedMemory = false;
    p.numThreads = 1;
    return p;
}

} // namespace costscope
#endif
