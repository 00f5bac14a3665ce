// SPDX-License-Identifier: MIT
#include "jobs/fusion_verify_job.h"

#include "analysis/run_predictions.h"
#include "formats/missing_tensor_data.h"

namespace costscope {

Result<FusionVerification> verifyFusionOf(const RunRequest& request, const std::atomic<bool>* cancel,
                                          const std::function<void(int done, int total)>& progress)
{
    auto backend = loadBackend(request.backend);
    if (!backend)
        return backend.error();
    if (request.device < 0 || request.device >= static_cast<DeviceIndex>((*backend)->devices().size()))
        return Diagnostic::error("backend " + request.backend + " has no device " + std::to_string(request.device));
    if (const std::string missing = missingDataReason(*request.graph); !missing.empty())
        return Diagnostic::error(missing);
    auto predicted = predictRun(*request.graph, request.bindings, request.backend, {});
    if (!predicted)
        return predicted.error();
    MeasureOptions options;
    options.warmupRuns = 1;
    options.timedRuns = request.runs;
    options.cancel = cancel;
    options.progress = progress;
    auto runs = measureUnfusedAndFused(**backend, *request.graph, request.bindings, request.device, {}, options);
    if (!runs)
        return runs.error();
    return verifyFusion(*request.graph, request.bindings, request.backend, *runs, predicted->costscopeProfile,
                        predicted->costscope);
}

} // namespace costscope
