// SPDX-License-Identifier: MIT
#include "jobs/all_devices_job.h"

#include "formats/missing_tensor_data.h"

namespace costscope {

Result<MultiDeviceRunReport> runOnAllDevicesOf(const AllDevicesRequest& request, Backend& backend,
                                               const std::atomic<bool>* cancel)
{
    if (backend.devices().empty())
        return Diagnostic::error("backend " + request.backend + " has no devices");
    if (const std::string missing = missingDataReason(*request.graph); !missing.empty())
        return Diagnostic::error(missing);
    MultiDeviceRunOptions options;
    options.measure.warmupRuns = 1;
    options.measure.timedRuns = request.runs;
    options.measure.cancel = cancel;
    auto report = runAndPredictOnDevices(backend, request.backend, *request.graph, request.bindings, {}, {}, options);
    if (cancel && cancel->load())
        return Diagnostic::error("run cancelled");
    return report;
}

Result<MultiDeviceRunReport> runOnAllDevicesOf(const AllDevicesRequest& request, const std::atomic<bool>* cancel)
{
    auto backend = loadBackend(request.backend);
    if (!backend)
        return backend.error();
    return runOnAllDevicesOf(request, **backend, cancel);
}

} // namespace costscope
