// SPDX-License-Identifier: MIT
#include "jobs/run_job.h"
#include "calibration/host_probe.h"
#include "formats/missing_tensor_data.h"
#include "measure.h"
#include "synthetic.h"

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
    // Predicted first: the CPU's reference kernels run before and after the timed runs (about 50 ms each) only when
    // the Costscope profile holds the calibration's probe to compare them with; a failed probe only leaves the
    // host-adjusted prediction out.
    auto predicted = predictRun(*request.graph, request.bindings, request.backend, {});
    if (!predicted)
        return predicted.error();
    const bool probe = request.backend == "cpu" && predicted->costscopeProfile.hostProbe.valid();
    auto before = probe ? probeHost(*backend, request.device, cancel) : Result<HostProbe>(HostProbe{});
    auto measured = measure(**plan, options);
    if (!measured)
        return measured.error();
    auto after = probe ? probeHost(*backend, request.device, cancel) : Result<HostProbe>(HostProbe{});
    if (auto r = cancelled(cancel); !r)
        return r.error();
    if (probe && before && after)
        adjustForHost(*predicted, *request.graph, request.bindings, meanProbe(*before, *after));
    return compareRun(request.graph, request.bindings, devices[static_cast<std::size_t>(request.device)], *measured,
                      *predicted);
}

} // namespace costscope
