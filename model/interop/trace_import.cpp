// SPDX-License-Identifier: MIT
#include "interop/trace_import.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

namespace costscope {

namespace {

constexpr std::string_view kOrtSuffix = "_kernel_time";

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isOrtProfile(const nlohmann::json& events)
{
    for (const auto& e : events)
        if (e.is_object() && e.value("cat", "") == "Node" && endsWith(e.value("name", ""), kOrtSuffix))
            return true;
    return false;
}

Result<Trace> parseRunResult(const nlohmann::json& j)
{
    if (!j["per_node"].is_array())
        return Diagnostic::error("\"per_node\" is not an array");
    Trace t;
    t.format = TraceFormat::CostscopeRun;
    std::size_t at = 0;
    for (const auto& n : j["per_node"]) {
        if (!n.is_object() || !n.contains("id") || !n["id"].is_number_integer() || !n.contains("measured_ns") ||
            !n["measured_ns"].is_number() || n["measured_ns"].get<double>() < 0)
            return Diagnostic::error("per_node[" + std::to_string(at) + "]: expected {\"id\": N, \"measured_ns\": T >= 0}");
        t.events.push_back({n.value("name", ""), n["measured_ns"].get<double>(), n.value("op", ""), n["id"].get<NodeId>()});
        ++at;
    }
    return t;
}

} // namespace

std::string normaliseTraceName(std::string_view name)
{
    if (!name.empty() && name.front() == '/')
        name.remove_prefix(1);
    std::string out;
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += char(std::tolower(static_cast<unsigned char>(c)));
        else if (out.empty() || out.back() != '_')
            out += '_';
    }
    return out;
}

Result<Trace> parseTrace(std::string_view text)
{
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded())
        return Diagnostic::error("not JSON");
    const nlohmann::json* events = &j;
    if (j.is_object() && j.contains("per_node"))
        return parseRunResult(j);
    if (j.is_object()) {
        if (!j.contains("traceEvents") || !j["traceEvents"].is_array())
            return Diagnostic::error("a JSON object without a \"traceEvents\" array: not a Chrome/Perfetto trace");
        events = &j["traceEvents"];
    } else if (!j.is_array()) {
        return Diagnostic::error("expected a trace: a \"traceEvents\" object or an array of events");
    }
    Trace t;
    t.format = isOrtProfile(*events) ? TraceFormat::OnnxRuntime : TraceFormat::Chrome;
    std::size_t index = 0;
    for (const auto& e : *events) {
        const std::size_t at = index++;
        if (!e.is_object() || e.value("ph", "") != "X")
            continue;
        std::string name = e.value("name", "");
        if (t.format == TraceFormat::OnnxRuntime) {
            if (e.value("cat", "") != "Node" || !endsWith(name, kOrtSuffix))
                continue;
            name.resize(name.size() - kOrtSuffix.size());
        }
        const auto dur = e.find("dur");
        if (dur == e.end() || !dur->is_number() || dur->get<double>() < 0)
            return Diagnostic::error("event " + std::to_string(at) + " (" + name + "): \"X\" event without a "
                                     "non-negative \"dur\"");
        TraceEvent ev{std::move(name), dur->get<double>() * 1000.0, {}, std::nullopt};
        if (const auto args = e.find("args"); args != e.end() && args->is_object())
            ev.opName = args->value("op_name", "");
        t.events.push_back(std::move(ev));
    }
    return t;
}

Result<Trace> loadTrace(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Diagnostic::error(path + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    auto t = parseTrace(ss.str());
    if (!t)
        return Diagnostic::error(path + ": " + t.error().message);
    return t;
}

TraceMatch matchTrace(const Graph& g, const Trace& t)
{
    std::unordered_map<std::string, std::size_t> exact, normalised;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        const std::string name = n.name.value_or(n.displayName());
        if (name.empty())
            continue;
        exact.emplace(name, i);
        normalised.emplace(normaliseTraceName(name), i);
    }
    std::vector<double> sum(g.nodes.size(), 0.0);
    std::vector<int> count(g.nodes.size(), 0);
    std::map<std::string, int> unmatched;
    TraceMatch m;
    for (const TraceEvent& e : t.events) {
        if (e.node) {
            if (const auto idx = g.indexOf(*e.node)) {
                sum[*idx] += e.durNs;
                ++count[*idx];
            } else {
                ++unmatched["node " + std::to_string(*e.node)];
            }
            continue;
        }
        auto it = exact.find(e.name);
        if (it == exact.end()) {
            it = normalised.find(normaliseTraceName(e.name));
            if (it == normalised.end()) {
                ++unmatched[e.name];
                continue;
            }
            if (count[it->second] == 0)
                ++m.matchedByNormalisedName;
        }
        sum[it->second] += e.durNs;
        ++count[it->second];
    }
    m.measuredNs.resize(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        if (count[i] > 0) {
            m.measuredNs[i] = sum[i] / count[i];
            ++m.matchedNodes;
            continue;
        }
        const OpKind k = g.nodes[i].op.kind;
        if (k != OpKind::Input && k != OpKind::Param && k != OpKind::Constant)
            m.unmatchedNodes.push_back(g.nodes[i].id);
    }
    for (const auto& [name, n] : unmatched)
        m.unmatchedEvents.push_back(name);
    return m;
}

} // namespace costscope
