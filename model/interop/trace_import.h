// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "ir/graph.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

enum class TraceFormat { Chrome, OnnxRuntime, CostscopeRun };

struct TraceEvent {
    std::string name;   // as matched: ONNX Runtime's "_kernel_time" suffix already removed
    double durNs = 0;
    std::string opName; // ONNX Runtime's args.op_name, when present
    std::optional<NodeId> node; // costscope-cli run results name the node by id: matched by id, not name
};

struct Trace {
    TraceFormat format = TraceFormat::Chrome;
    std::vector<TraceEvent> events;
};

// Chrome/Perfetto trace JSON ({"traceEvents": [...]} or a bare array; complete "X" events, dur in µs, as RLX writes
// with RLX_TRACE_PERFETTO) or ONNX Runtime's profile (an array whose per-node events have cat "Node" and names
// "<node>_kernel_time"; the fence_before/after events are not kernel time and are dropped), or the JSON of
// `costscope-cli run --per-node --json` (the engine's RunResult: "per_node" [{"id", "measured_ns"}]).
Result<Trace> parseTrace(std::string_view text);
Result<Trace> loadTrace(const std::string& path);

struct TraceMatch {
    std::vector<std::optional<double>> measuredNs; // per graph node (index order): mean duration over its events
    std::size_t matchedNodes = 0;
    std::size_t matchedByNormalisedName = 0;
    std::vector<std::string> unmatchedEvents; // distinct event names that named no node
    std::vector<NodeId> unmatchedNodes;       // nodes that do work (not Input/Param/Constant) with no event
};

// Events are matched to nodes by name: exact first, then normalised (case folded, a leading '/' dropped, every
// run of non-alphanumerics as one '_', so "/h.0/attn/MatMul" meets "h_0_attn_MatMul").
TraceMatch matchTrace(const Graph& g, const Trace& t);
std::string normaliseTraceName(std::string_view name);

} // namespace costscope
