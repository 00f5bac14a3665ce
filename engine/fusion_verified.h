// SPDX-License-Identifier: MIT
#pragma once
// "Fusion verified": the same graph run unfused and fused (same warm-up and repeats), and for each kernel the fused
// run made of several nodes the measured gain beside two predictions of it: RLX's IO fusion gate score for the
// backend's target (analysis/fusion_gate.h) and the Costscope what-if (the members' predictions less the fused
// kernel's price, fused_group_prices.h). The use case behind `costscope-cli run --fusion compare` and the Run
// panel's Fusion tab.

#include "analysis/cost_model.h"
#include "backend.h"
#include "measure.h"

#include <string>
#include <vector>

namespace costscope {

// A predicted gain counts as right when it lies within this share of the measured gain.
inline constexpr double kFusionGainTolerance = 0.25;
bool gainWithinTolerance(double predictedNs, double measuredNs);

struct FusedKernelCheck {
    std::string kernel;          // the fused run's name for it
    std::vector<NodeId> members; // inputs first, the exit (whose id the fused run's timing carries) last
    // Measured, each net of its run's instrumentation overhead (calibration_fit.h): the members' times in the
    // unfused run summed, and the kernel's time in the fused run.
    double unfusedNs = 0;
    double fusedNs = 0;
    double measuredGainNs = 0; // unfusedNs − fusedNs
    double rlxGateGainNs = 0;  // RLX's IO gate score for the members as one kernel
    double costscopeUnfusedNs = 0, costscopeFusedNs = 0;
    double costscopeGainNs = 0; // costscopeUnfusedNs − costscopeFusedNs
    // Why this kernel has no measurement (a member the unfused run did not time) or no what-if; empty when fine.
    std::string problem;
    bool checked() const { return problem.empty(); }
};

struct FusionVerification {
    std::string backend;
    std::string target;            // the fusion gate's target: "Cuda", "Cpu", ...
    std::string profile;           // the Costscope profile the what-if prices with
    std::size_t plannedGroups = 0; // what planFusion finds in the graph: the groups a fusing backend runs
    TimingStats unfusedWhole, fusedWhole;
    double unfusedOverheadNs = 0, fusedOverheadNs = 0; // per timed node
    std::vector<FusedKernelCheck> kernels;             // the fused run's order
    std::size_t checkedKernels = 0;
    double rlxShareWithin = 0, costscopeShareWithin = 0; // of the checked kernels, within kFusionGainTolerance
    double rlxGateGainNs = 0, costscopeGainNs = 0;       // summed over the checked kernels

    // The fused run ran no node together with another: the backend does not fuse (CPU, Vulkan).
    bool backendFused() const { return !kernels.empty(); }
    // Why there is nothing to verify, for a user; empty when there is.
    std::string nothingToVerify() const;
};

// The two runs: `unfused` compiled with fusion off, `fused` with it on, both instrumented (per-node times).
struct FusionCompareRuns {
    RunResult unfused, fused;
};

// Pairs measurements with predictions. `costscope` is the Costscope model's estimate of `g` under `profile`.
FusionVerification verifyFusion(const Graph& g, const Bindings& b, const std::string& backend,
                                const FusionCompareRuns& runs, const DeviceProfile& profile,
                                const GraphCost& costscope);

// Compiles `g` twice on `backend` (fusion off, then on; the backend's options are restored after) and measures each
// with `options` and per-node times. `inputs` empty: arange inputs (synthetic.h).
Result<FusionCompareRuns> measureUnfusedAndFused(Backend& backend, const Graph& g, const Bindings& b,
                                                 DeviceIndex device, const std::vector<HostTensor>& inputs,
                                                 MeasureOptions options);

} // namespace costscope
