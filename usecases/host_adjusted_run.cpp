// SPDX-License-Identifier: MIT
#include "usecases/host_adjusted_run.h"

#include "calibration/host_probe.h"

namespace costscope {

Result<RunResult> measureHostAdjusted(Backend& backend, DeviceIndex device, ExecutablePlan& plan,
                                      const MeasureOptions& options, const Graph& g, const Bindings& bindings,
                                      RunPredictions& predictions, bool probe, std::string* probeProblem)
{
    probe = probe && predictions.costscopeProfile.hostProbe.valid();
    auto before = probe ? probeHost(backend, device, options.cancel) : Result<HostProbe>(HostProbe{});
    auto measured = measure(plan, options);
    if (!measured || !probe)
        return measured;
    auto after = probeHost(backend, device, options.cancel);
    if (before && after)
        adjustForHost(predictions, g, bindings, meanProbe(*before, *after));
    else if (probeProblem)
        *probeProblem = "host probe failed: " + (before ? after.error().message : before.error().message);
    return measured;
}

} // namespace costscope
