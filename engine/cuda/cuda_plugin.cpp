// SPDX-License-Identifier: MIT
// The CUDA backend as a plugin (libcostscope_backend_cuda.so): the only place that links the CUDA toolkit's libraries.
#include "calibration/calibration_figures.h"
#include "cuda/cuda_profile.h"
#include "calibration/save_calibration.h"
#include "cuda/cuda_backend.h"
#include "plugins/backend_plugin.h"

#include <sstream>
#include <string_view>

namespace costscope {

namespace {

class CudaPlugin : public BackendPlugin {
public:
    std::unique_ptr<Backend> makeBackend() override { return std::make_unique<CudaBackend>(); }

    Result<DeviceCalibration> calibrate(const DeviceCalibrationOptions& o) override
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
        DeviceCalibration d{profileFromCudaCalibration(*c, o.name, calibrationHost(), calibrationDate(), o.tool), {}};
        std::ostringstream out;
        out << "device:        " << c->device << '\n';
        printSgemmTable(out, d.profile, "cuBLAS sgemm");
        out << "conv layers:   " << c->conv.size() << " timed; im2col rate " << d.profile.im2colBw
            << " GB/s\ncopy bw:       " << d.profile.memoryBw << " GB/s\ndispatch:      " << d.profile.dispatchNs
            << " ns (in a CUDA graph)\nlaunch+sync:   " << d.profile.roundtripNs << " ns\nreadback bw:   "
            << d.profile.hostReadbackBw << " GB/s\n";
        for (const auto& [precision, points] : c->gemmByPrecision) {
            out << "gemm " << precisionName(precision) << ":";
            for (const CudaCalibration::GemmPoint& g : points)
                out << ' ' << g.m << 'x' << g.k << 'x' << g.n << '=' << g.flopsPerSecond / 1e12 << "TF";
            out << '\n';
        }
        for (const std::string& note : c->precisionNotes)
            out << "left out:      " << note << '\n';
        d.figures = out.str();
        return d;
    }
};

} // namespace

} // namespace costscope

COSTSCOPE_EXPORT_BACKEND_PLUGIN(costscope::CudaPlugin)
