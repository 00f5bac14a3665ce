// SPDX-License-Identifier: MIT
#include "analysis/run_predictions.h"

#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"

namespace costscope {

Device deviceOfBackend(const std::string& backend)
{
    if (backend == "cuda")
        return Device::Cuda;
    if (backend == "vulkan")
        return Device::Gpu;
    return Device::Cpu;
}

Result<RunPredictions> predictRun(const Graph& g, const Bindings& b, const std::string& backend,
                                  const std::string& profileName)
{
    const auto set = rlxProfileSet("rlx-linux");
    const DeviceProfile* rlx = findProfile(set, deviceOfBackend(backend));
    if (!rlx)
        return Diagnostic::error("rlx-linux has no profile for backend " + backend);
    RunPredictions p;
    p.rlxProfile = *rlx;
    const auto lib = ProfileLibrary::load(ProfilePaths::defaults());
    const DeviceProfile* chosen = lib.find(profileName.empty() ? "calibrated-" + backend : profileName);
    if (!chosen && !profileName.empty())
        return Diagnostic::error("no device profile named '" + profileName + "' (see costscope-cli profiles)");
    p.costscopeProfile = chosen ? *chosen : *rlx;
    p.rlx = makeCostModel("rlx")->estimate(g, p.rlxProfile, b);
    p.costscope = makeCostModel("costscope")->estimate(g, p.costscopeProfile, b);
    return p;
}

void adjustForHost(RunPredictions& p, const Graph& g, const Bindings& b, const HostProbe& now)
{
    if (!p.costscopeProfile.hostProbe.valid() || !now.valid())
        return;
    p.hostSpeed = hostSpeed(p.costscopeProfile.hostProbe, now);
    p.costscopeHost = makeCostModel("costscope")->estimate(g, hostAdjusted(p.costscopeProfile, *p.hostSpeed), b);
}

} // namespace costscope
