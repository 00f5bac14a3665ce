// SPDX-License-Identifier: MIT
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load.h"

#include "interop/trace_import.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace costscope::cli {

int cmdImportTrace(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {"json"}, {}, &err);
    if (!args || args->positional().size() != 2) {
        std::cerr << "usage: costscope-cli import-trace FILE TRACE.json [--json]" << (err.empty() ? "" : "\n" + err)
                  << '\n';
        return kUsage;
    }
    auto loaded = loadForCommand(args->positional()[0], true);
    if (!loaded)
        return kBadInput;
    auto trace = loadTrace(args->positional()[1]);
    if (!trace) {
        std::cerr << trace.error().message << '\n';
        return kBadInput;
    }
    const Graph& g = loaded->graph;
    const TraceMatch m = matchTrace(g, *trace);
    const char* format = trace->format == TraceFormat::OnnxRuntime    ? "onnxruntime"
                         : trace->format == TraceFormat::CostscopeRun ? "costscope-run"
                                                                      : "chrome";
    if (!args->flag("json")) {
        std::cout << format << " trace, " << trace->events.size() << " event(s): " << m.matchedNodes
                  << " node(s) matched (" << m.matchedByNormalisedName << " by normalised name), "
                  << m.unmatchedEvents.size() << " event name(s) unmatched, " << m.unmatchedNodes.size()
                  << " node(s) without an event\n";
        for (const std::string& e : m.unmatchedEvents)
            std::cout << "  unmatched event: " << e << '\n';
        return kOk;
    }
    nlohmann::ordered_json j;
    j["format"] = format;
    j["events"] = trace->events.size();
    j["matched_nodes"] = m.matchedNodes;
    j["matched_by_normalised_name"] = m.matchedByNormalisedName;
    nlohmann::ordered_json measured = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (m.measuredNs[i])
            measured.push_back({{"id", g.nodes[i].id}, {"name", g.nodes[i].displayName()}, {"measured_ns", *m.measuredNs[i]}});
    j["measured"] = measured;
    j["unmatched_events"] = m.unmatchedEvents;
    j["unmatched_nodes"] = m.unmatchedNodes;
    std::cout << j.dump(2) << '\n';
    return kOk;
}

} // namespace costscope::cli
