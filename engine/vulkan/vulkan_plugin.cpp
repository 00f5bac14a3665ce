// SPDX-License-Identifier: MIT
// The Vulkan backend as a plugin (libcostscope_backend_vulkan.so): the only place that links the Vulkan loader.
#include "calibration/calibration_figures.h"
#include "calibration/save_calibration.h"
#include "vulkan/vulkan_profile.h"
#include "plugins/backend_plugin.h"
#include "vulkan/vulkan_backend.h"

#include <sstream>
#include <string_view>

namespace costscope {

namespace {

class VulkanPlugin : public BackendPlugin {
public:
    std::unique_ptr<Backend> makeBackend() override { return std::make_unique<vk::VulkanBackend>(); }

    Result<DeviceCalibration> calibrate(const DeviceCalibrationOptions& o) override
    {
        VulkanCalibrationOptions options = vulkanCalibrationOptions(o.quick, o.device);
        options.cancel = o.cancel;
        options.progress = o.progress;
        auto c = calibrateVulkan(options);
        if (!c)
            return c.error();
        DeviceCalibration d{profileFromVulkanCalibration(*c, o.name, calibrationHost(), calibrationDate(), o.tool),
                            {}};
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
};

} // namespace

} // namespace costscope

COSTSCOPE_EXPORT_BACKEND_PLUGIN(costscope::VulkanPlugin)
