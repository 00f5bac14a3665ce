// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/fusion_gate.h"
#include "analysis/welch_peaks.h"
#include "ir/diagnostic.h"
#include "ir/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace costscope {

// Fusion-gate decisions and Welch-peaks strategy costs over a sweep of values: what the Sweeps panel plots
// (charts 2 and 3) and what `costscope-cli welch-peaks sweep` and `costscope-cli sweep --gates` print.

// One fusion target's gate score at each sweep value, with its threshold.
struct GateCurve {
    FusionTarget target = FusionTarget::Cpu;
    std::string label;           // the target's name ("Cuda")
    std::vector<double> scoreNs; // per sweep value
    std::vector<bool> fuse;      // per sweep value: score ≥ minGainNs (and, for Welch peaks, the compute floor)
    double minGainNs = 0;
};

// The device that stands for each fusion target when asking the Welch-peaks gate (what `gate welch-peaks
// --device` is given), in fusionTargets() order; Gpu stands for the wgpu class.
const std::vector<Device>& welchGateDevices();

// welchGate for each target's device at each batch: one curve per fusion target, in fusionTargets() order.
std::vector<GateCurve> welchGateSweep(const std::vector<DeviceProfile>& set, const std::vector<std::int64_t>& batches,
                                      std::int64_t nFft = 256, std::int64_t k = 16);

// welchStrategyCosts of one device at each batch.
struct WelchStrategySweep {
    Device device = Device::Cpu;
    std::vector<std::vector<double>> ns; // [ultra, fast, rlx, learned][batch]; +infinity where not open
    std::vector<WelchStrategy> pick;     // per batch
};
WelchStrategySweep welchStrategySweep(const std::vector<DeviceProfile>& set, Device d,
                                      const std::vector<std::int64_t>& batches, std::int64_t nFft = 256,
                                      std::int64_t k = 16, LearnedGates learned = {});

// fuseWhatIf of `nodes` with `symbol` bound to each value (over `base`): one curve per fusion target, in
// fusionTargets() order. The first value whose what-if fails gives the error.
Result<std::vector<GateCurve>> fuseGateSweep(const Graph& g, const std::vector<NodeId>& nodes,
                                             const std::string& symbol, const std::vector<std::int64_t>& values,
                                             const Bindings& base = {});

} // namespace costscope
