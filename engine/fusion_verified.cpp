// SPDX-License-Identifier: MIT
#include "fusion_verified.h"

#include "analysis/calibration_fit.h"
#include "analysis/fuse_what_if.h"
#include "analysis/run_predictions.h"
#include "fused_group_prices.h"
#include "fusion_plan.h"
#include "synthetic.h"

#include <algorithm>
#include <cmath>

namespace costscope {

namespace {
std::vector<std::pair<NodeId, double>> timesOf(const RunResult& r)
{
    std::vector<std::pair<NodeId, double>> times;
    for (const NodeTiming& t : r.perNode)
        times.emplace_back(t.node, double(t.ns));
    return times;
}

double gateScore(const Graph& g, const Bindings& b, const std::vector<NodeId>& members, FusionTarget target,
                 std::string* problem)
{
    auto whatIf = fuseWhatIf(g, members, b);
    if (!whatIf) {
        *problem = whatIf.error().message;
        return 0;
    }
    for (const FuseVerdict& v : whatIf->verdicts)
        if (v.target == target)
            return v.scoreNs;
    return 0;
}

std::string idList(const std::vector<NodeId>& ids)
{
    std::string s;
    for (NodeId id : ids)
        s += (s.empty() ? "" : ", ") + std::to_string(id);
    return s;
}

Result<RunResult> measureWith(Backend& backend, bool fusion, const Graph& g, const Bindings& b, DeviceIndex device,
                              std::vector<HostTensor>* inputs, const MeasureOptions& options)
{
    CompileOptions compile = backend.compileOptions();
    compile.fusion = fusion;
    backend.setCompileOptions(compile);
    auto plan = backend.compile(g, b, device);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    if (inputs->empty())
        for (const PlanInput& in : (*plan)->inputs())
            inputs->push_back(arangeInput(in.dims, in.dtype));
    if (auto r = (*plan)->setInputs(*inputs); !r)
        return r.error();
    return measure(**plan, options);
}
} // namespace

bool gainWithinTolerance(double predictedNs, double measuredNs)
{
    return std::abs(predictedNs - measuredNs) <= kFusionGainTolerance * std::abs(measuredNs);
}

std::string FusionVerification::nothingToVerify() const
{
    if (backendFused())
        return {};
    if (plannedGroups == 0)
        return "the fusion plan finds no nodes to fuse in this graph: nothing to verify";
    return "not fused by this backend: " + backend + " ran every node as a kernel of its own (the fusion plan finds "
           + std::to_string(plannedGroups) + " groups in this graph, which the CUDA backend runs as one kernel each)";
}

FusionVerification verifyFusion(const Graph& g, const Bindings& b, const std::string& backend,
                                const FusionCompareRuns& runs, const DeviceProfile& profile, const GraphCost& costscope)
{
    FusionVerification v;
    v.backend = backend;
    const FusionTarget target = fusionTargetFor(deviceOfBackend(backend)).value_or(FusionTarget::Cpu);
    v.target = std::string(fusionTargetName(target));
    v.profile = profile.name;
    v.plannedGroups = planFusion(g, b).groups.size();
    v.unfusedWhole = runs.unfused.whole;
    v.fusedWhole = runs.fused.whole;
    const auto unfusedTimes = timesOf(runs.unfused), fusedTimes = timesOf(runs.fused);
    v.unfusedOverheadNs = instrumentationOverheadNs(unfusedTimes, double(runs.unfused.whole.medianNs));
    v.fusedOverheadNs = instrumentationOverheadNs(fusedTimes, double(runs.fused.whole.medianNs));
    const auto unfusedNet = nodeTimesWithoutOverhead(unfusedTimes, double(runs.unfused.whole.medianNs));

    const auto groups = fusedGroupsOf(runs.fused.perNode);
    const FusedPricing prices = priceFusedGroups(g, b, profile, costscope, groups);
    std::size_t group = 0, rlxWithin = 0, costscopeWithin = 0;
    for (const NodeTiming& t : runs.fused.perNode) {
        if (t.fused.empty())
            continue;
        const FusedGroupPrice& price = prices.groups[group++];
        FusedKernelCheck k;
        k.kernel = t.label;
        k.members = price.members;
        k.fusedNs = withoutOverheadNs(double(t.ns), v.fusedOverheadNs);
        std::vector<NodeId> untimed;
        for (NodeId id : k.members) {
            const auto it = unfusedNet.find(id);
            if (it == unfusedNet.end())
                untimed.push_back(id);
            else
                k.unfusedNs += it->second;
        }
        k.measuredGainNs = k.unfusedNs - k.fusedNs;
        k.rlxGateGainNs = gateScore(g, b, k.members, target, &k.problem);
        k.costscopeUnfusedNs = price.unfusedNs;
        k.costscopeFusedNs = price.fusedNs;
        k.costscopeGainNs = price.unfusedNs - price.fusedNs;
        if (!price.problem.empty())
            k.problem = "the what-if cannot fuse it: " + price.problem;
        if (!untimed.empty())
            k.problem = "the unfused run did not time node(s) " + idList(untimed);
        if (k.checked()) {
            ++v.checkedKernels;
            rlxWithin += gainWithinTolerance(k.rlxGateGainNs, k.measuredGainNs) ? 1 : 0;
            costscopeWithin += gainWithinTolerance(k.costscopeGainNs, k.measuredGainNs) ? 1 : 0;
            v.rlxGateGainNs += k.rlxGateGainNs;
            v.costscopeGainNs += k.costscopeGainNs;
        }
        v.kernels.push_back(std::move(k));
    }
    if (v.checkedKernels > 0) {
        v.rlxShareWithin = double(rlxWithin) / double(v.checkedKernels);
        v.costscopeShareWithin = double(costscopeWithin) / double(v.checkedKernels);
    }
    return v;
}

Result<FusionCompareRuns> measureUnfusedAndFused(Backend& backend, const Graph& g, const Bindings& b,
                                                 DeviceIndex device, const std::vector<HostTensor>& inputs,
                                                 MeasureOptions options)
{
    const CompileOptions before = backend.compileOptions();
    options.perNode = true;
    std::vector<HostTensor> in = inputs;
    // Progress over both runs: the fused run's timed runs count after the unfused run's.
    const auto progress = options.progress;
    auto offset = [&](int first) {
        if (progress)
            options.progress = [progress, first](int done, int total) { progress(first + done, 2 * total); };
    };
    offset(0);
    auto unfused = measureWith(backend, false, g, b, device, &in, options);
    offset(std::max(options.timedRuns, 1));
    auto fused = unfused ? measureWith(backend, true, g, b, device, &in, options) : Result<RunResult>(unfused.error());
    backend.setCompileOptions(before);
    if (!fused)
        return fused.error();
    return FusionCompareRuns{std::move(*unfused), std::move(*fused)};
}

} // namespace costscope
