// SPDX-License-Identifier: MIT
#include "report/trace_export.h"

#include "layout/group_tree.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace costscope {

namespace {

using Json = nlohmann::ordered_json;

struct Slice {
    std::int64_t startNs = 0;
    std::int64_t durNs = 0;
    std::size_t opened = 0; // the order slices begin in, parents before their children
    Json event;
};

// A node's name in the trace: as the graph names it, so that a trace viewer's search finds what the canvas shows.
std::string sliceName(const Node& n)
{
    const std::string name = n.name.value_or(n.displayName());
    return name.empty() ? n.op.label() : name;
}

// "a/b/c" → "a", "a/b", "a/b/c".
std::vector<std::string> scopePrefixes(const std::string& scope)
{
    std::vector<std::string> out;
    for (std::size_t at = 0; !scope.empty() && at != std::string::npos;) {
        at = scope.find('/', at + 1);
        out.push_back(scope.substr(0, at));
    }
    return out;
}

Json nodeArgs(const Graph& g, const TraceInput& in, const TraceNode& t, const std::string& scope)
{
    const Node* n = g.find(t.id);
    Json predicted = Json::object();
    for (std::size_t m = 0; m < in.models.size() && m < t.predictedNs.size(); ++m)
        predicted[in.models[m].key] = t.predictedNs[m];
    Json args = {{"node_id", t.id}, {"op", n ? n->op.label() : std::string()}, {"scope", scope}};
    if (t.measuredNs)
        args["measured_ns"] = *t.measuredNs;
    args["predicted_ns"] = std::move(predicted);
    args["flops"] = t.flops;
    args["bytes"] = t.bytes;
    return args;
}

Json completeEvent(std::string name, const char* category, const Slice& s, int pid)
{
    return {{"name", std::move(name)},         {"cat", category}, {"ph", "X"}, {"ts", double(s.startNs) / 1000.0},
            {"dur", double(s.durNs) / 1000.0}, {"pid", pid},      {"tid", 1}};
}

// The nodes back to back, `durationOf` each (nullopt: not on this track), nested in their scopes' slices.
template <typename Duration>
std::vector<Slice> trackSlices(const Graph& g, const TraceInput& in, const std::vector<std::string>& scopes, int pid,
                               Duration durationOf)
{
    struct OpenScope {
        std::string path;
        std::int64_t startNs;
        std::size_t opened;
    };
    std::vector<Slice> slices;
    std::vector<OpenScope> open;
    std::int64_t cursor = 0;
    std::size_t opened = 0;
    const auto closeFrom = [&](std::size_t depth) {
        while (open.size() > depth) {
            Slice s{open.back().startNs, cursor - open.back().startNs, open.back().opened, {}};
            const std::string& path = open.back().path;
            s.event = completeEvent(path.substr(path.rfind('/') + 1), "scope", s, pid);
            s.event["args"] = {{"scope", path}};
            slices.push_back(std::move(s));
            open.pop_back();
        }
    };
    for (std::size_t i = 0; i < in.nodes.size(); ++i) {
        const std::optional<double> ns = durationOf(in.nodes[i]);
        const Node* n = g.find(in.nodes[i].id);
        if (!ns || !n)
            continue;
        const std::vector<std::string> prefixes = scopePrefixes(scopes[i]);
        std::size_t common = 0;
        while (common < open.size() && common < prefixes.size() && open[common].path == prefixes[common])
            ++common;
        closeFrom(common);
        for (std::size_t p = common; p < prefixes.size(); ++p)
            open.push_back({prefixes[p], cursor, opened++});
        Slice s{cursor, std::max<std::int64_t>(0, std::llround(*ns)), opened++, {}};
        s.event = completeEvent(sliceName(*n), "node", s, pid);
        s.event["args"] = nodeArgs(g, in, in.nodes[i], scopes[i]);
        cursor += s.durNs;
        slices.push_back(std::move(s));
    }
    closeFrom(0);
    return slices;
}

void appendMetadata(Json& events, int pid, const std::string& process)
{
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", process}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
    events.push_back(
        {{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 1}, {"args", {{"name", "stream 0"}}}});
}

// In the order they begin: viewers nest slices of one start by the order they read them, so a scope comes before
// its first node, and a node that took no time before the node after it (which would otherwise take it as a child).
void appendSlices(Json& events, std::vector<Slice> slices)
{
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) { return a.opened < b.opened; });
    for (Slice& s : slices)
        events.push_back(std::move(s.event));
}

} // namespace

std::string chromeTraceJson(const Graph& g, const TraceInput& in)
{
    std::vector<std::string> scopes;
    for (const TraceNode& t : in.nodes) {
        const auto index = g.indexOf(t.id);
        scopes.push_back(index ? effectiveScope(g, *index) : std::string());
    }
    Json events = Json::array();
    const bool measured =
        std::any_of(in.nodes.begin(), in.nodes.end(), [](const TraceNode& t) { return t.measuredNs; });
    if (measured) {
        appendMetadata(events, 1, in.measuredTrack);
        appendSlices(events, trackSlices(g, in, scopes, 1, [](const TraceNode& t) { return t.measuredNs; }));
    }
    for (std::size_t m = 0; m < in.models.size(); ++m) {
        const int pid = int(m) + 2;
        appendMetadata(events, pid, "predicted: " + in.models[m].key + " (" + in.models[m].profile + ")");
        appendSlices(events, trackSlices(g, in, scopes, pid, [m](const TraceNode& t) {
                         return m < t.predictedNs.size() ? std::optional<double>(t.predictedNs[m]) : std::nullopt;
                     }));
    }
    Json trace = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
    trace["otherData"] = {{"graph", g.name}, {"generator", "costscope " COSTSCOPE_VERSION}};
    return trace.dump(1) + '\n';
}

} // namespace costscope
