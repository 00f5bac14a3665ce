// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "tensor.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// Time of one node in an instrumented run. Nodes a backend ran as one kernel (a fusion group) share one timing: it
// names the group's exit node, the kernel in `label`, and the group's other nodes in `fused`.
struct NodeTiming {
    NodeId node = 0;
    std::string label; // "Binary.Add", "Conv", or the fused kernel's name
    std::int64_t ns = 0;
    std::vector<NodeId> fused = {}; // the other nodes of the kernel, inputs first; empty when the node ran alone
};

// The kernel a device backend names in a node's label ("CumSum[host fallback: CPU kernel]") where it has no kernel
// of its own for the node, or its kernel refuses the node, and it ran the CPU backend's on the host, between copies
// (cuda/host_fallback.h).
inline constexpr std::string_view kHostFallbackKernel = "host fallback: CPU kernel";
inline bool ranOnHost(const NodeTiming& t)
{
    return t.label.find("[" + std::string(kHostFallbackKernel) + "]") != std::string::npos;
}

// Whole-graph wall times over the timed runs (warm-up runs excluded).
struct TimingStats {
    int runs = 0;
    std::int64_t medianNs = 0;
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
    double spread = 0.0; // (max - min) / median; 0 for a single run

    static TimingStats of(std::vector<std::int64_t> samplesNs);
};

// The result of measuring a graph on one device: immutable once built; share as shared_ptr<const RunResult>.
struct RunResult {
    std::string backend;
    std::string device;
    std::vector<NodeTiming> perNode; // empty unless an instrumented run was made
    TimingStats whole;
    std::vector<HostTensor> outputs; // in the graph's output order
};

} // namespace costscope
