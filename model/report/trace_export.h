// SPDX-License-Identifier: MIT
#pragma once
// Chrome/Perfetto trace-event JSON of a run (costscope-cli run --trace, the Run panel's "Export trace…").

#include "ir/graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace costscope {

// One executed node: what was measured and what each model predicted.
struct TraceNode {
    NodeId id = 0;
    std::optional<double> measuredNs;
    std::vector<double> predictedNs; // one per TraceInput::models
    double flops = 0;
    std::uint64_t bytes = 0;
};

// One model's prediction: `key` names it in the slices' args (a plain identifier, so that a trace processor's SQL
// reaches it as args.predicted_ns.<key>), `profile` in its process name ("predicted: costscope (calibrated-cpu)").
struct TraceModel {
    std::string key;
    std::string profile;
};

struct TraceInput {
    std::string measuredTrack;      // "measured: cpu:0 (AMD EPYC)"; shown only where some node was measured
    std::vector<TraceModel> models; // one predicted process each
    std::vector<TraceNode> nodes;   // execution order
};

// The trace: process 1 the measured run, process 2, 3, ... one per model's prediction. Each process has one
// thread ("stream 0": nodes run one after another) whose slices are the nodes back to back in execution order,
// nested in slices of their scopes ("h.0" holding "h.0/attn"). Node slices are named like the graph (name, else the
// op label), with cat "node" and args node_id, op, scope, measured_ns, predicted_ns {key: ns}, flops, bytes;
// scope slices have cat "scope". Times are µs, as the format wants.
std::string chromeTraceJson(const Graph& g, const TraceInput& in);

} // namespace costscope
