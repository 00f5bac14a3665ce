// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/gate_sweep.h"
#include "analysis/sweep.h"
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// Everything one recomputation of the sweep charts needs; copied into the worker thread.
struct SweepInputs {
    std::shared_ptr<const Graph> graph;
    std::string model = "rlx";
    std::vector<std::string> devices = {"Cpu", "Cuda", "Gpu"}; // toolbar device or profile names
    std::string focusDevice = "Cpu";                            // charts 3 and 4
    std::string symbol = "batch";
    std::vector<std::int64_t> values;
    Bindings base;
    std::vector<NodeId> fuseNodes; // "fuse these": empty for none
    std::optional<NodeId> pinnedNode; // chart 4 gives it a curve even when it is not among the top nodes
    std::int64_t nFft = 256, k = 16;
    LearnedGates learned; // chart 3's learned strategy; off (not open) unless set
    RlxVersion rlxVersion = kDefaultRlxVersion; // chart 1's pick rule
};

struct ShareCurve {
    std::string label;
    NodeId node = 0; // meaningless for the "other nodes" curve
    bool other = false;
    std::vector<double> share; // of the graph's total, 0..1
};

struct SweepData {
    std::vector<std::int64_t> values;
    std::string symbol;
    std::int64_t nFft = 0, k = 0;
    LearnedGates learned;
    bool symbolInGraph = true; // false when the graph has no dimension named `symbol`: flat curves
    std::vector<std::string> deviceLabels;
    SweepResult sweep;                  // chart 1
    std::vector<GateCurve> welchGates;  // chart 2, one per fusion target (welchGateSweep); only when sweeping batch
    std::vector<GateCurve> fuseGates;   // chart 2, for the selected nodes (fuseGateSweep, labels "X (selection)")
    std::string fuseError;
    std::string focusLabel;
    // Chart 3 (welchStrategySweep with the inputs' learned gates): [ultra, fast, rlx, learned][value]; the sweep
    // values are the Welch-peaks workload's batch whatever symbol is swept.
    std::vector<std::vector<double>> strategyNs;
    std::vector<int> strategyPick;
    std::vector<ShareCurve> shares;     // chart 4
    std::string error;
    bool cancelled = false;
};

inline constexpr int kTopNodes = 6;

SweepData computeSweepData(const SweepInputs& in, const std::atomic<bool>* cancel = nullptr);

} // namespace costscope
