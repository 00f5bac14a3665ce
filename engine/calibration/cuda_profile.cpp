// SPDX-License-Identifier: MIT
#ifdef COSTSCOPE_HAVE_CUDA
#include "calibration/cuda_profile.h"

#include "analysis/gemm_rate.h"

#include <algorithm>

namespace costscope {

namespace {
// The im2col rate (column bytes per ns) that explains the measured Conv nodes best: each takes its GEMM's time at
// the sgemm table's rate plus 4·m·k column bytes at that rate; least squares through the origin on what the GEMM
// leaves. 0 when there are no points or the GEMM explains them all.
double im2colRate(const std::vector<CudaCalibration::ConvPoint>& points, const GemmRate& gemm)
{
    double cc = 0, cr = 0;
    for (const CudaCalibration::ConvPoint& v : points) {
        const double columns = 4.0 * double(v.m) * double(v.k);
        const double gemmNs = 2.0 * double(v.m) * double(v.k) * double(v.n) / std::max(gemm.at(v.m, v.k, v.n), 1e-9);
        cc += columns * columns;
        cr += columns * (v.seconds * 1e9 - gemmNs);
    }
    return cr > 0 ? cc / cr : 0.0;
}
} // namespace

DeviceProfile profileFromCudaCalibration(const CudaCalibration& c, const std::string& name, const std::string& host,
                                         const std::string& date)
{
    DeviceProfile p;
    p.name = name;
    p.device = Device::Cuda;
    p.description = "CUDA " + c.device + ", measured with cuBLAS and Costscope's own kernels";
    p.source = "calibrated on " + host + " " + date + " by costscope-cli calibrate";
    double best = 0;
    for (const CudaCalibration::GemmPoint& g : c.sgemm) {
        p.sgemmTable.push_back({g.m, g.k, g.n, g.flopsPerSecond / 1e9});
        best = std::max(best, g.flopsPerSecond / 1e9);
    }
    p.sgemmGflops = best;
    p.peakGflops = best;
    p.im2colBw = im2colRate(c.conv, GemmRate(p));
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
#endif
