// SPDX-License-Identifier: MIT
#include "vulkan/vulkan_profile.h"

#include "analysis/gemm_rate.h"
#include "calibration/sgemm_table.h"

#include <algorithm>

namespace costscope {

DeviceProfile profileFromVulkanCalibration(const VulkanCalibration& c, const std::string& name,
                                           const std::string& host, const std::string& date, const std::string& tool)
{
    DeviceProfile p;
    p.name = name;
    p.device = Device::Vulkan;
    p.description = "Vulkan " + c.device + ", measured with Costscope's own compute shaders";
    p.source = "calibrated on " + host + " " + date + " by " + tool;
    p.calibration = Calibration::Measured;
    std::vector<SgemmPoint> table;
    for (const VulkanCalibration::MatMulPoint& m : c.matmul)
        table.push_back({m.m, m.k, m.n, m.gflops});
    setSgemmTable(p, std::move(table));
    p.im2colBw = fitIm2colRate(c.conv, GemmRate(p));
    // The shaders' own tilings (matmul.comp: 128x128 tiles, k steps of 8; conv.comp: 64x64, steps of 16, rows =
    // output channels, columns = batch·output positions).
    std::vector<TiledTiming> matmul, conv;
    for (const VulkanCalibration::MatMulPoint& m : c.matmul)
        matmul.push_back({m.m, m.k, m.n, 1, 2.0 * double(m.m) * double(m.k) * double(m.n) / std::max(m.gflops, 1e-9)});
    for (const ConvPoint& v : c.conv)
        conv.push_back({v.n, v.k, v.m, 1, v.seconds * 1e9});
    p.matmulWaves = fitTileWaves(matmul, 128, 128, 8);
    p.convWaves = fitTileWaves(conv, 64, 64, 16);
    p.memoryBw = c.elementwiseGBps;
    p.dispatchNs = c.dispatchOverheadUs * 1e3;
    p.roundtripNs = c.roundtripUs * 1e3;
    p.hostReadbackBw = c.readbackGBps;
    p.unifiedMemory = false;
    p.numThreads = 1;
    return p;
}

} // namespace costscope
