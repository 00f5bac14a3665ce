// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"

namespace costscope {

// The spec's terms of one estimate_graph_cost_with_io (cost-model.md §3), each computed by its formula.
// For a fallback profile: nodesNs = (nodes that are not Input/Param) × 2000 and dispatchNs = launches × dispatch.
struct RlxTerms {
    double roundtripNs = 0;
    double nodesNs = 0;     // Σ node_cost (fallback: the 2000 ns per node)
    double dispatchNs = 0;  // fallback only: launches × dispatch (in node_cost otherwise)
    double trafficNs = 0;   // device_traffic_bytes / max(memory_bw, 1)
    double readbackNs = 0;  // host_readback_bytes(unified) / max(host_readback_bw, 1)
    double syncNs = 0;      // sync_points × roundtrip
};

struct RlxEstimate {
    GraphCost cost;
    RlxTerms terms;
    // What no node carries: the roundtrip, plus any term no node has a share of (a supplied IO profile with
    // sync points or bytes the graph's own nodes do not have). cost.totalNs = graphLevelNs + Σ node totals,
    // summed in that order over cost.nodes.
    double graphLevelNs = 0;
};

// The profile-independent part of one node's estimate: node_cost's inputs and the node's IO shares, with the
// bindings applied.
struct RlxNodeWork {
    enum class Kind {
        Free,        // Input, Param, Constant: node_cost 0
        Gemm,        // MatMul, FusedMatMulBiasAct, Attention: flops / (sgemm_gflops(m, k, n) + 1) + dispatch
        Elementwise, // output elements × 4 / max(memory_bw, 1) + dispatch
        DispatchOnly, // Attention without inputs
        Fused        // a fused node: Σ its kernels' parts (Gemm or Elementwise, without dispatch) + one dispatch
    };
    NodeId id = 0;
    Kind kind = Kind::Free;
    bool skipped = false;       // an unbound symbol: costs nothing, note says which
    std::string note;
    double flops = 0;
    std::int64_t m = 0, k = 0, n = 0;
    std::uint64_t outElements = 0;
    bool fallbackNode = false;  // not Input/Param: the discrete-GPU fallback's 2000 ns
    bool launches = false;      // not an RLX metadata op: carries traffic, sync and output shares
    std::uint64_t trafficBytes = 0;
    bool hostSync = false;
    std::uint64_t outputBytes = 0; // a graph output's bytes
    // Fused: what RLX would run for the set. A GEMM with epilogue costs its GEMMs, as RLX prices its own
    // FusedMatMulBiasAct (the epilogue adds nothing); a set without a GEMM is one element-wise op writing the
    // set's exit. Intermediate outputs stay in the kernel; the IO profile counts the boundary traffic.
    std::vector<RlxNodeWork> parts;
};

// Everything an estimate needs of a graph with its bindings: price() turns it into the estimate under any profile
// without looking at the graph again, so a sweep builds it once per value for all its profiles.
struct RlxWork {
    IoProfile io; // the graph's own IO profile
    std::vector<RlxNodeWork> nodes;
};

// RLX's BackendCostModel (cost-model.md §3), reproduced exactly ("RLX parity").
//
// How the whole-graph terms land on nodes (each share is term × node weight / Σ weights):
// - node_cost: MatMul/FusedMatMulBiasAct/Attention flops part → computeNs; the element-wise part
//   (output elements × 4 / bw) → memoryNs; dispatch → dispatchNs.
// - device traffic → memoryNs, by each launching node's traffic bytes (inputs per use + output);
// - readback: the host_output part → readbackNs of launching output nodes by their output bytes; the
//   traffic/4 part (not unified) → readbackNs by traffic bytes;
// - sync points × roundtrip → syncNs, equal shares over the host-sync nodes;
// - roundtrip → graph level.
// Fallback profiles (rlxFallback): io_cost's launches × dispatch → dispatchNs of launching nodes, and the
// 2000 ns per non Input/Param node → computeNs.
// Nodes whose costing needs an unbound symbol are skipped (cost 0, NodeCost::skipped, GraphCost::skipped).
class RlxCostModel : public CostModel {
public:
    std::string name() const override { return "rlx"; }
    // estimate_graph_cost: the graph's own IO profile.
    GraphCost estimate(const Graph& g, const DeviceProfile& p, const Bindings& b = {}) const override;
    RlxEstimate estimateWithIo(const Graph& g, const DeviceProfile& p, const IoProfile& io,
                               const Bindings& b = {}) const;
    RlxWork work(const Graph& g, const Bindings& b = {}) const;
    // estimateWithIo from the work, with the given IO profile (usually w.io).
    RlxEstimate price(const RlxWork& w, const DeviceProfile& p, const IoProfile& io) const;
    // node_cost alone (no whole-graph shares).
    NodeCost nodeCost(const Graph& g, const Node& n, const DeviceProfile& p, const Bindings& b = {}) const;
};

// io_cost(profile, model) = roundtrip + launches × dispatch + syncs × roundtrip + traffic / max(memory_bw, 1)
// + host_readback_bytes(unified) / max(host_readback_bw, 1).
double rlxIoCost(const IoProfile& io, const DeviceProfile& p);
// estimate_graph_cost_with_io, or the fallback estimate for an rlxFallback profile.
double rlxEstimateWithIo(const Graph& g, const DeviceProfile& p, const IoProfile& io, const Bindings& b = {});
double rlxEstimate(const Graph& g, const DeviceProfile& p, const Bindings& b = {});

} // namespace costscope
