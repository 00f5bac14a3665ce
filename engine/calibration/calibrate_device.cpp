// SPDX-License-Identifier: MIT
#include "calibration/calibrate_device.h"

#include "calibration/cpu_calibrate.h"
#include "calibration/save_calibration.h"
#ifdef COSTSCOPE_HAVE_CUDA
#include "calibration/cuda_profile.h"
#endif
#ifdef COSTSCOPE_HAVE_VULKAN
#include "calibration/vulkan_profile.h"
#endif

#include <sstream>

namespace costscope {

namespace {
void printSgemmTable(std::ostream& out, const DeviceProfile& p, const char* what)
{
    out << what << " (GFLOP/s):\n";
    for (const SgemmPoint& s : p.sgemmTable)
        out << "  " << s.m << 'x' << s.k << 'x' << s.n << "  " << s.gflops << '\n';
}

Result<DeviceCalibration> calibrateCpuDevice(const DeviceCalibrationOptions& o, const std::string& name)
{
    CpuCalibrationOptions options;
    options.quick = o.quick;
    options.cancel = o.cancel;
    options.progress = o.progress;
    auto c = calibrateCpu(options);
    if (!c)
        return c.error();
    DeviceCalibration d{profileFromCpuCalibration(*c, name, calibrationHost(), calibrationDate(), o.tool), {}};
    std::ostringstream out;
    out << "device:        " << c->device << " (" << c->numThreads << " threads)\n";
    printSgemmTable(out, d.profile, "sgemm");
    out << "read bw:       " << c->readBw << " GB/s\nwrite bw:      " << c->writeBw << " GB/s\ncopy bw:       "
        << c->copyBw << " GB/s\ndispatch:      " << c->dispatchNs << " ns/node\nroundtrip:     " << c->roundtripNs
        << " ns\nreadback bw:   " << c->hostReadbackBw << " GB/s\n";
    d.figures = out.str();
    return d;
}

#ifdef COSTSCOPE_HAVE_VULKAN
Result<DeviceCalibration> calibrateVulkanDevice(const DeviceCalibrationOptions& o, const std::string& name)
{
    VulkanCalibrationOptions options = vulkanCalibrationOptions(o.quick, o.device);
    options.cancel = o.cancel;
    options.progress = o.progress;
    auto c = calibrateVulkan(options);
    if (!c)
        return c.error();
    DeviceCalibration d{profileFromVulkanCalibration(*c, name, calibrationHost(), calibrationDate(), o.tool), {}};
    std::ostringstream out;
    out << "device:        " << c->device << '\n';
    printSgemmTable(out, d.profile, "matmul");
    out << "conv layers:   " << c->conv.size() << " timed; im2col rate " << d.profile.im2colBw
        << " GB/s\nelement-wise:  " << c->elementwiseGBps << " GB/s\ncopy kernel:   " << c->copyGBps
        << " GB/s\nbuffer copy:   " << c->bufferCopyGBps << " GB/s\ndispatch:      " << c->dispatchOverheadUs
        << " us\nsubmit+wait:   " << c->roundtripUs << " us\nreadback bw:   " << c->readbackGBps << " GB/s\n";
    d.figures = out.str();
    return d;
}
#endif

#ifdef COSTSCOPE_HAVE_CUDA
Result<DeviceCalibration> calibrateCudaDevice(const DeviceCalibrationOptions& o, const std::string& name)
{
    CudaCalibrationOptions options;
    if (o.quick) {
        options.gemmSizes = {256, 1024};
        options.bandwidthBytes = std::size_t(256) << 20;
        options.repeats = 5;
    }
    auto c = calibrateCuda(o.device, options);
    if (!c)
        return c.error();
    DeviceCalibration d{profileFromCudaCalibration(*c, name, calibrationHost(), calibrationDate(), o.tool), {}};
    std::ostringstream out;
    out << "device:        " << c->device << '\n';
    printSgemmTable(out, d.profile, "cuBLAS sgemm");
    out << "conv layers:   " << c->conv.size() << " timed; im2col rate " << d.profile.im2colBw
        << " GB/s\ncopy bw:       " << d.profile.memoryBw << " GB/s\ndispatch:      " << d.profile.dispatchNs
        << " ns (in a CUDA graph)\nlaunch+sync:   " << d.profile.roundtripNs << " ns\nreadback bw:   "
        << d.profile.hostReadbackBw << " GB/s\n";
    d.figures = out.str();
    return d;
}
#endif
} // namespace

bool canCalibrate(const std::string& backend)
{
    if (backend == "cpu")
        return true;
#ifdef COSTSCOPE_HAVE_VULKAN
    if (backend == "vulkan")
        return true;
#endif
#ifdef COSTSCOPE_HAVE_CUDA
    if (backend == "cuda")
        return true;
#endif
    return false;
}

Result<DeviceCalibration> calibrateDevice(const DeviceCalibrationOptions& o)
{
    const std::string name = o.name.empty() ? "calibrated-" + o.backend : o.name;
    if (o.backend == "cpu")
        return calibrateCpuDevice(o, name);
#ifdef COSTSCOPE_HAVE_VULKAN
    if (o.backend == "vulkan")
        return calibrateVulkanDevice(o, name);
#endif
#ifdef COSTSCOPE_HAVE_CUDA
    if (o.backend == "cuda")
        return calibrateCudaDevice(o, name);
#endif
    return Diagnostic::error("backend '" + o.backend + "' has no calibration in this binary");
}

} // namespace costscope
