// SPDX-License-Identifier: MIT
#include "report/report.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace costscope {

std::string reportTime(double ns)
{
    char buf[48];
    if (ns < 1e3)
        std::snprintf(buf, sizeof buf, "%.0f ns", ns);
    else if (ns < 1e6)
        std::snprintf(buf, sizeof buf, "%.1f us", ns / 1e3);
    else if (ns < 1e9)
        std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.2f s", ns / 1e9);
    return buf;
}

namespace {

std::string pickReason(const std::vector<ReportDevice>& d, const RuledPick& rule, const std::vector<Calibration>& tags,
                       RlxVersion version)
{
    const std::size_t pick = *rule.pick;
    std::optional<std::size_t> next;
    for (std::size_t i = 0; i < d.size(); ++i)
        if (i != pick && rule.ranked[i] && (!next || d[i].totalNs < d[*next].totalNs))
            next = i;
    std::string text;
    if (d.size() < 2) {
        text = d[pick].device + " is the only device analysed";
    } else if (!next) {
        text = d[pick].device + " is the only device ranked (" + reportTime(d[pick].totalNs) + ")";
    } else {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2fx", d[pick].totalNs > 0 ? d[*next].totalNs / d[pick].totalNs : 1.0);
        text = d[pick].device + " has the lowest predicted total (" + reportTime(d[pick].totalNs) + "), " + ratio
             + " cheaper than the next best, " + d[*next].device + " (" + reportTime(d[*next].totalNs) + ")";
    }
    for (std::size_t i = 0; i < d.size(); ++i)
        if (!rule.ranked[i] && d[i].totalNs < d[pick].totalNs)
            text += "; " + d[i].device + " (" + reportTime(d[i].totalNs) + ") is cheaper but "
                  + leftOutReason(tags[i], version);
    return text;
}

} // namespace

Report buildReport(const Graph& g, const std::vector<GraphCost>& costs, const ReportOptions& o)
{
    Report r;
    r.title = o.title;
    r.source = o.source;
    r.model = o.model;
    r.bindings = o.bindings;
    std::vector<double> totals;
    std::vector<Calibration> tags;
    for (const GraphCost& c : costs) {
        r.devices.push_back({std::string(deviceName(c.device)), c.profile, c.totalNs, c.io, std::nullopt});
        totals.push_back(c.totalNs);
        tags.push_back(c.calibration);
    }
    const RuledPick rule = pickByRule(totals, tags, o.rlxVersion);
    r.pick = rule.pick.value_or(0);
    r.pickReason = rule.pick ? pickReason(r.devices, rule, tags, o.rlxVersion) : std::string();

    r.nodes.reserve(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        ReportNode rn;
        rn.id = n.id;
        rn.name = n.displayName();
        rn.op = n.op.label();
        rn.shape = n.shape.toString();
        for (NodeId in : n.inputs)
            if (auto idx = g.indexOf(in))
                rn.inputs.push_back(*idx);
        for (const GraphCost& c : costs) {
            const NodeCost* nc = i < c.nodes.size() ? &c.nodes[i] : nullptr;
            rn.costNs.push_back(nc ? nc->totalNs : 0.0);
            rn.computeNs.push_back(nc ? nc->computeNs : 0.0);
            rn.memoryNs.push_back(nc ? nc->memoryNs : 0.0);
            rn.dispatchNs.push_back(nc ? nc->dispatchNs : 0.0);
        }
        if (!costs.empty() && i < costs.front().nodes.size()) {
            rn.flops = costs.front().nodes[i].flops;
            rn.bytes = costs.front().nodes[i].bytes;
            rn.skipped = costs.front().nodes[i].skipped;
        }
        r.nodes.push_back(std::move(rn));
    }
    if (!r.devices.empty()) {
        std::vector<std::size_t> order(r.nodes.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        const std::size_t p = r.pick;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return r.nodes[a].costNs[p] > r.nodes[b].costNs[p];
        });
        order.resize(std::min(order.size(), o.topN));
        r.top = std::move(order);
    }
    return r;
}

void attachSweep(Report& r, const SweepResult& s, const std::string& symbol)
{
    ReportSweep rs;
    rs.symbol = symbol;
    rs.values = s.values;
    rs.totalNs = s.totalNs;
    for (const Crossover& c : s.crossovers)
        rs.crossovers.push_back(c.text);
    r.sweep = std::move(rs);
}

void attachMeasured(Report& r, const std::vector<std::optional<double>>& measuredNs, const std::string& source,
                    std::optional<std::size_t> device)
{
    r.measuredSource = source;
    double total = 0;
    for (std::size_t i = 0; i < r.nodes.size() && i < measuredNs.size(); ++i) {
        r.nodes[i].measuredNs = measuredNs[i];
        total += measuredNs[i].value_or(0.0);
    }
    const std::size_t d = device.value_or(r.pick);
    if (d < r.devices.size())
        r.devices[d].measuredTotalNs = total;
}

} // namespace costscope
