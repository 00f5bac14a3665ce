// SPDX-License-Identifier: MIT
#include "report/report_writers.h"

#include <nlohmann/json.hpp>

namespace costscope {

namespace {

using Json = nlohmann::ordered_json;

Json optionalNs(const std::optional<double>& v)
{
    return v ? Json(*v) : Json();
}

Json devicesJson(const Report& r)
{
    Json out = Json::array();
    for (const ReportDevice& d : r.devices)
        out.push_back({{"device", d.device},
                       {"profile", d.profile},
                       {"total_ns", d.totalNs},
                       {"measured_total_ns", optionalNs(d.measuredTotalNs)},
                       {"io",
                        {{"kernel_launches", d.io.kernelLaunches},
                         {"sync_points", d.io.syncPoints},
                         {"host_output_bytes", d.io.hostOutputBytes},
                         {"device_traffic_bytes", d.io.deviceTrafficBytes}}}});
    return out;
}

Json nodesJson(const Report& r)
{
    Json out = Json::array();
    for (const ReportNode& n : r.nodes) {
        Json inputs = Json::array();
        for (std::size_t i : n.inputs)
            inputs.push_back(r.nodes[i].id);
        out.push_back({{"id", n.id},
                       {"name", n.name},
                       {"op", n.op},
                       {"shape", n.shape},
                       {"inputs", inputs},
                       {"cost_ns", n.costNs},
                       {"compute_ns", n.computeNs},
                       {"memory_ns", n.memoryNs},
                       {"dispatch_ns", n.dispatchNs},
                       {"flops", n.flops},
                       {"bytes", n.bytes},
                       {"skipped", n.skipped},
                       {"measured_ns", optionalNs(n.measuredNs)}});
    }
    return out;
}

} // namespace

std::string reportJson(const Report& r)
{
    Json j;
    j["schema"] = "costscope-report/1";
    j["title"] = r.title;
    j["source"] = r.source;
    j["model"] = r.model;
    j["bindings"] = Json::object();
    for (const auto& [sym, v] : r.bindings)
        j["bindings"][sym] = v;
    j["node_count"] = r.nodes.size();
    j["devices"] = devicesJson(r);
    j["pick"] = r.devices.empty() ? Json()
                                  : Json{{"device", r.devices[r.pick].device}, {"index", r.pick},
                                         {"reason", r.pickReason}};
    Json top = Json::array();
    for (std::size_t i : r.top)
        top.push_back(r.nodes[i].id);
    j["top_nodes"] = top;
    j["nodes"] = nodesJson(r);
    if (r.sweep)
        j["sweep"] = {{"symbol", r.sweep->symbol}, {"values", r.sweep->values}, {"total_ns", r.sweep->totalNs},
                      {"crossovers", r.sweep->crossovers}};
    else
        j["sweep"] = Json();
    j["measured_source"] = r.measuredSource.empty() ? Json() : Json(r.measuredSource);
    return j.dump(2) + '\n';
}

std::string reportCsv(const Report& r)
{
    std::string out = "node_id,name,op,shape,device,profile,cost_ns,compute_ns,memory_ns,dispatch_ns,flops,bytes,"
                      "measured_ns\n";
    // RFC 4180 quoting: names and shapes contain commas ("F32[2,3]").
    auto quoted = [](const std::string& s) {
        std::string q = "\"";
        for (char c : s) {
            if (c == '"')
                q += '"';
            q += c;
        }
        return q + '"';
    };
    auto num = [](double v) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        return std::string(buf);
    };
    for (const ReportNode& n : r.nodes)
        for (std::size_t d = 0; d < r.devices.size(); ++d)
            out += std::to_string(n.id) + ',' + quoted(n.name) + ',' + quoted(n.op) + ',' + quoted(n.shape) + ',' +
                   r.devices[d].device + ',' + quoted(r.devices[d].profile) + ',' + num(n.costNs[d]) + ',' +
                   num(n.computeNs[d]) + ',' + num(n.memoryNs[d]) + ',' + num(n.dispatchNs[d]) + ',' +
                   num(n.flops) + ',' + std::to_string(n.bytes) + ',' +
                   (n.measuredNs && r.devices[d].measuredTotalNs ? num(*n.measuredNs) : std::string()) + '\n';
    return out;
}

} // namespace costscope
