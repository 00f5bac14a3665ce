// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "analysis/op_cost.h"

namespace costscope {

// The calibrated Costscope model, a per-node roofline:
//   node = (max(flops / rate, bytes / memory_bw) + dispatch) × corrections[op class]
//          + roundtrip (host-sync ops) + output bytes / host_readback_bw (graph outputs, discrete memory only)
//   graph = roundtrip + Σ node
// rate: matmul-class ops use the profile's sgemm table (GemmRate); other ops peak × a class efficiency (below).
// Views and leaves cost nothing and launch nothing. Nodes whose shapes have unbound symbols are listed in
// GraphCost::skipped and contribute 0; everything else is still costed.
// The device-independent half of an estimate: what every node does for one set of bindings. A sweep computes
// it once per value and prices it for each profile.
struct GraphWork {
    std::vector<OpWork> nodes;       // graph order
    std::vector<double> outputBytes; // bytes a graph output sends to the host; 0 for other nodes
    std::vector<double> outputElements;  // each node's output elements (0: unbound)
    std::vector<double> inputReuseBytes; // each node's inputs' reuse distance (analysis/reuse_distance.h)
    IoProfile io;
};

class CostscopeCostModel : public CostModel {
public:
    std::string name() const override { return "costscope"; }
    GraphCost estimate(const Graph& g, const DeviceProfile& p, const Bindings& b = {}) const override;
    GraphWork work(const Graph& g, const Bindings& b) const;
    GraphCost price(const Graph& g, const GraphWork& w, const DeviceProfile& p) const;

    // Share of peak FLOP/s a non-GEMM kernel of this class reaches when compute-bound.
    static double classEfficiency(OpClass c);
};

} // namespace costscope
