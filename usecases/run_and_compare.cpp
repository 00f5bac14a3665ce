// SPDX-License-Identifier: MIT
#include "usecases/run_and_compare.h"

#include "formats/missing_tensor_data.h"
#include "synthetic.h"
#include "usecases/host_adjusted_run.h"

namespace costscope {

namespace {
Result<bool> cancelled(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load())
        return Diagnostic::error("run cancelled");
    return true;
}
} // namespace

Result<RunComparison> runAndCompare(const RunRequest& request, const std::atomic<bool>* cancel,
                                    const std::function<void(int done, int total)>& progress)
{
    auto backend = makeBackend(request.backend);
    if (!backend)
        return Diagnostic::error("backend " + request.backend + " is not in this build");
    const auto devices = backend->devices();
    if (request.device < 0 || request.device >= static_cast<DeviceIndex>(devices.size()))
        return Diagnostic::error("backend " + request.backend + " has no device " + std::to_string(request.device));
    if (const std::string missing = missingDataReason(*request.graph); !missing.empty())
        return Diagnostic::error(missing);
    auto plan = backend->compile(*request.graph, request.bindings, request.device);
    if (!plan)
        return plan.error();
    // Compiling and uploading do not look at `cancel`: check it between the steps.
    if (auto r = cancelled(cancel); !r)
        return r.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    if (auto r = cancelled(cancel); !r)
        return r.error();
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : (*plan)->inputs())
        inputs.push_back(arangeInput(in.dims, in.dtype));
    if (auto r = (*plan)->setInputs(inputs); !r)
        return r.error();
    MeasureOptions options;
    options.warmupRuns = 1;
    options.timedRuns = request.runs;
    options.perNode = true;
    options.cancel = cancel;
    options.progress = progress;
    auto predicted = predictRun(*request.graph, request.bindings, request.backend, {});
    if (!predicted)
        return predicted.error();
    auto measured = measureHostAdjusted(*backend, request.device, **plan, options, *request.graph, request.bindings,
                                        *predicted, true, nullptr);
    if (!measured)
        return measured.error();
    if (auto r = cancelled(cancel); !r)
        return r.error();
    return compareRun(request.graph, request.bindings, devices[static_cast<std::size_t>(request.device)], *measured,
                      *predicted);
}

} // namespace costscope
