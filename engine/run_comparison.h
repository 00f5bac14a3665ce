// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/profile_fit.h"
#include "analysis/run_predictions.h"
#include "backend.h"
#include "report/trace_export.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// One timed node and what both models predicted for it.
struct NodeComparison {
    std::size_t nodeIndex = 0; // in RunComparison::graph
    NodeId id = 0;
    std::string label; // "Binary.Add"
    OpClass opClass = OpClass::Unknown;
    double measuredNs = 0;
    double rlxNs = 0;
    double costscopeNs = 0;
    double costscopeHostNs = 0; // host-adjusted (RunComparison::hostSpeed); 0 without a probe
    double flops = 0;           // as the Costscope model counts them
    std::uint64_t bytes = 0;
    std::vector<NodeId> fused = {}; // the other nodes the backend ran in this node's kernel (NodeTiming::fused)
};

// A finished run of one graph set against the RLX parity and Costscope predictions. Built on the worker thread,
// then shared read-only (std::shared_ptr<const RunComparison>).
struct RunComparison {
    std::shared_ptr<const Graph> graph;
    Bindings bindings;
    std::string backend;
    DeviceIndex device = 0;
    std::string deviceName;
    TimingStats whole;
    std::string rlxProfile;       // e.g. "rlx-linux/cpu"
    std::string costscopeProfile; // e.g. "calibrated-cpu"
    double rlxTotalNs = 0;
    double costscopeTotalNs = 0;
    // With a host probe around the run and a profile that holds one: the host's speed against the calibration and
    // the Costscope prediction at that speed (adjustForHost).
    std::optional<HostSpeed> hostSpeed;
    double costscopeHostTotalNs = 0;
    std::vector<NodeComparison> nodes; // execution order
    // The sum of each output's elements, in the graph's output order (elementSum): what the run computed, so that
    // a run elsewhere (a remote host's) can be checked against one here.
    std::vector<double> outputSums;

    // Measured ns per node index of `graph`; nullopt for nodes the run did not time (leaves).
    std::vector<std::optional<double>> measuredByNode() const;
    // The run as a sample set for fitting corrections.
    MeasuredRun measuredRun() const;
    // The run and the predictions beside it, for a trace (chromeTraceJson).
    TraceInput traceInput() const;
};

// (predicted − measured) / measured in percent; 0 when nothing was measured.
double errorPercent(double predictedNs, double measuredNs);

// Sets a run of `graph` on `device` against both models: the RLX parity model under the rlx-linux profile of the
// device's backend, the Costscope model under the user's calibrated-<backend> profile (predictRun's choice), and
// with `probe` (the host probe taken around the run) the host-adjusted Costscope model.
Result<RunComparison> compareRun(std::shared_ptr<const Graph> graph, const Bindings& bindings,
                                 const DeviceInfo& device, const RunResult& result,
                                 const std::optional<HostProbe>& probe = std::nullopt);
// The same against predictions already made for the run (predictRun, then adjustForHost where it probed the host).
RunComparison compareRun(std::shared_ptr<const Graph> graph, const Bindings& bindings, const DeviceInfo& device,
                         const RunResult& result, const RunPredictions& predicted);

} // namespace costscope
