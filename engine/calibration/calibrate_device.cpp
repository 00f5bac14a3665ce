// SPDX-License-Identifier: MIT
#include "calibration/calibrate_device.h"

#include "calibration/calibration_figures.h"
#include "calibration/cpu_calibrate.h"
#include "calibration/save_calibration.h"
#include "plugins/backend_plugin.h"

#include <algorithm>
#include <sstream>

namespace costscope {

namespace {
Result<DeviceCalibration> calibrateCpuDevice(const DeviceCalibrationOptions& o)
{
    CpuCalibrationOptions options;
    options.quick = o.quick;
    if (o.repeats > 0) {
        options.repeats = o.repeats;
        options.warmupRuns = std::min(options.warmupRuns, o.repeats);
    }
    options.cancel = o.cancel;
    options.progress = o.progress;
    auto c = calibrateCpu(options);
    if (!c)
        return c.error();
    DeviceCalibration d{profileFromCpuCalibration(*c, o.name, calibrationHost(), calibrationDate(), o.tool), {}};
    std::ostringstream out;
    out << "device:        " << c->device << " (" << c->numThreads << " threads)\n";
    printSgemmTable(out, d.profile, "sgemm");
    out << "read bw:       " << c->readBw << " GB/s\nwrite bw:      " << c->writeBw << " GB/s\ncopy bw:       "
        << c->copyBw << " GB/s\ndispatch:      " << c->dispatchNs << " ns/node\nroundtrip:     " << c->roundtripNs
        << " ns\nreadback bw:   " << c->hostReadbackBw << " GB/s\n";
    d.figures = out.str();
    return d;
}
} // namespace

bool canCalibrate(const std::string& backend)
{
    return backend == "cpu" || loadBackendPlugin(backend).ok();
}

Result<DeviceCalibration> calibrateDevice(const DeviceCalibrationOptions& o)
{
    DeviceCalibrationOptions named = o;
    if (named.name.empty())
        named.name = "calibrated-" + o.backend;
    if (o.backend == "cpu")
        return calibrateCpuDevice(named);
    auto plugin = loadBackendPlugin(o.backend);
    if (!plugin)
        return Diagnostic::error("backend '" + o.backend + "' cannot be calibrated here: " + plugin.error().message);
    return (*plugin)->calibrate(named);
}

} // namespace costscope
