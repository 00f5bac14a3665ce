// SPDX-License-Identifier: MIT
#include "cuda/cuda_profile.h"

#include "analysis/gemm_rate.h"
#include "calibration/sgemm_table.h"

#include <algorithm>

namespace costscope {

DeviceProfile profileFromCudaCalibration(const CudaCalibration& c, const std::string& name, const std::string& host,
                                         const std::string& date, const std::string& tool)
{
    DeviceProfile p;
    p.name = name;
    p.device = Device::Cuda;
    p.description = "CUDA " + c.device + ", measured with cuBLAS and Costscope's own kernels";
    p.source = "calibrated on " + host + " " + date + " by " + tool;
    p.calibration = Calibration::Measured;
    std::vector<SgemmPoint> table;
    for (const CudaCalibration::GemmPoint& g : c.sgemm)
        table.push_back({g.m, g.k, g.n, g.flopsPerSecond / 1e9});
    setSgemmTable(p, std::move(table));
    for (const auto& [precision, points] : c.gemmByPrecision)
        for (const CudaCalibration::GemmPoint& g : points)
            p.dtypeRates.gemmTables[precision].push_back({g.m, g.k, g.n, g.flopsPerSecond / 1e9});
    p.im2colBw = fitIm2colRate(c.conv, GemmRate(p));
    // bytes/s → bytes/ns; seconds → ns.
    p.memoryBw = c.copyBytesPerSecond / 1e9;
    // The backend's plain run replays a CUDA graph: a node costs the in-graph kernel overhead, not a stream launch.
    p.dispatchNs = (c.graphKernelSeconds > 0 ? c.graphKernelSeconds : c.launchOverheadSeconds) * 1e9;
    p.roundtripNs = c.launchSyncSeconds * 1e9;
    p.hostReadbackBw = c.pinnedReadbackBytesPerSecond / 1e9;
    p.unifiedMemory = false;
    p.numThreads = 1;
    return p;
}

} // namespace costscope
