// SPDX-License-Identifier: MIT
#include "analysis/host_speed.h"

#include <cstdio>

namespace costscope {

namespace {
double ratio(double then, double now)
{
    return then > 0 && now > 0 ? then / now : 1.0;
}
} // namespace

HostSpeed hostSpeed(const HostProbe& atCalibration, const HostProbe& now)
{
    return {ratio(atCalibration.gemmNs, now.gemmNs), ratio(atCalibration.kernelNs, now.kernelNs),
            ratio(atCalibration.memoryNs, now.memoryNs), ratio(atCalibration.dispatchNs, now.dispatchNs)};
}

DeviceProfile hostAdjusted(const DeviceProfile& p, const HostSpeed& s)
{
    DeviceProfile a = p;
    for (SgemmPoint& g : a.sgemmTable)
        g.gflops *= s.gemm;
    a.sgemmGflops *= s.gemm;
    a.smallSgemmGflops *= s.gemm;
    a.peakGflops *= s.gemm;
    for (auto& [key, gflops] : a.kernelGflops)
        gflops *= s.kernel;
    for (auto& [key, points] : a.kernelGflopsBySize)
        for (KernelRatePoint& k : points)
            k.gflops *= s.kernel;
    a.memoryBw *= s.memory;
    for (BandwidthPoint& b : a.memoryBwTable)
        b.gbps *= s.memory;
    a.viewCopyBw *= s.memory;
    a.im2colBw *= s.memory;
    a.hostReadbackBw *= s.memory;
    a.dispatchNs /= s.dispatch;
    a.roundtripNs /= s.dispatch;
    a.convCallNs /= s.dispatch;
    char note[160];
    std::snprintf(note, sizeof note, "; host-adjusted (now vs calibration: gemm %.2fx, kernels %.2fx, memory %.2fx, "
                  "dispatch %.2fx)", s.gemm, s.kernel, s.memory, s.dispatch);
    a.description += note;
    return a;
}

} // namespace costscope
