// SPDX-License-Identifier: MIT
#include "cli/run_predict.h"

#include "analysis/profile_library.h"
#include "analysis/rlx_profiles.h"

#include <unordered_map>

namespace costscope::cli {

namespace {
Device deviceOfBackend(const std::string& backend)
{
    if (backend == "cuda")
        return Device::Cuda;
    if (backend == "vulkan")
        return Device::Gpu;
    return Device::Cpu;
}
} // namespace

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

FitRun fitRunFrom(const Graph& g, const GraphCost& uncorrected, const std::vector<std::pair<NodeId, double>>& measured,
                  double wholeMeasuredNs)
{
    std::unordered_map<NodeId, const NodeCost*> byId;
    for (const NodeCost& c : uncorrected.nodes)
        byId[c.id] = &c;
    FitRun run;
    run.predictedNs = uncorrected.totalNs;
    run.measuredNs = wholeMeasuredNs;
    for (auto [id, ns] : measured) {
        auto it = byId.find(id);
        const Node* n = g.find(id);
        if (it == byId.end() || !n || it->second->skipped || it->second->totalNs <= 0)
            continue;
        run.nodes.push_back({std::string(opClassName(n->op.info().opClass)), it->second->totalNs, ns});
    }
    return run;
}

} // namespace costscope::cli
