// SPDX-License-Identifier: MIT
#include "report/report_svg.h"
#include "report/report_writers.h"

#include <cstdio>

namespace costscope {

namespace {

const char* const kCss = R"(body{font-family:sans-serif;margin:2em;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td:first-child,th:first-child,td.l{text-align:left}th{background:#f3f3f3}.pick{background:#e8f5e9}
.diagram{overflow:auto;border:1px solid #ddd;max-height:900px}h2{margin-top:1.6em}
)";

std::string ratio(double a, double b)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", b > 0 ? a / b : 0.0);
    return buf;
}

std::string devicesTable(const Report& r)
{
    std::string s = "<table><tr><th>Device</th><th>Profile</th><th>Predicted</th><th>Total ns</th><th>Kernel "
                    "launches</th><th>Sync points</th><th>Host output bytes</th><th>Device traffic bytes</th>"
                    "<th>Measured</th><th>Predicted / measured</th></tr>\n";
    char total[40];
    for (std::size_t i = 0; i < r.devices.size(); ++i) {
        const ReportDevice& d = r.devices[i];
        std::snprintf(total, sizeof total, "%.17g", d.totalNs);
        s += std::string("<tr") + (i == r.pick ? " class=\"pick\"" : "") + "><td>" + xmlEscape(d.device) +
             "</td><td class=\"l\">" + xmlEscape(d.profile) + "</td><td>" + reportTime(d.totalNs) + "</td><td>" +
             total + "</td><td>" + std::to_string(d.io.kernelLaunches) + "</td><td>" +
             std::to_string(d.io.syncPoints) + "</td><td>" + std::to_string(d.io.hostOutputBytes) + "</td><td>" +
             std::to_string(d.io.deviceTrafficBytes) + "</td><td>" +
             (d.measuredTotalNs ? reportTime(*d.measuredTotalNs) : "") + "</td><td>" +
             (d.measuredTotalNs ? ratio(d.totalNs, *d.measuredTotalNs) : "") + "</td></tr>\n";
    }
    return s + "</table>\n";
}

std::string nodeRow(const Report& r, const ReportNode& n)
{
    std::string s = "<tr><td>" + std::to_string(n.id) + "</td><td class=\"l\">" + xmlEscape(n.name) +
                    "</td><td class=\"l\">" + xmlEscape(n.op) + "</td><td class=\"l\">" + xmlEscape(n.shape) + "</td>";
    for (std::size_t d = 0; d < r.devices.size(); ++d)
        s += "<td>" + (n.skipped ? std::string("not costed") : reportTime(n.costNs[d])) + "</td>";
    s += "<td>" + (n.measuredNs ? reportTime(*n.measuredNs) : std::string()) + "</td></tr>\n";
    return s;
}

std::string nodeTable(const Report& r, const std::vector<std::size_t>& rows)
{
    std::string s = "<table><tr><th>Id</th><th>Name</th><th>Op</th><th>Shape</th>";
    for (const ReportDevice& d : r.devices)
        s += "<th>" + xmlEscape(d.device) + "</th>";
    s += "<th>Measured</th></tr>\n";
    for (std::size_t i : rows)
        s += nodeRow(r, r.nodes[i]);
    return s + "</table>\n";
}

} // namespace

std::string reportHtml(const Report& r)
{
    const std::string title = r.title.empty() ? "Costscope report" : r.title;
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + xmlEscape(title) +
                    "</title><style>" + kCss + "</style></head><body>\n<h1>" + xmlEscape(title) + "</h1>\n";
    s += "<p>Graph <code>" + xmlEscape(r.source) + "</code>, " + std::to_string(r.nodes.size()) +
         " nodes, cost model <b>" + xmlEscape(r.model) + "</b>";
    for (const auto& [sym, v] : r.bindings)
        s += ", " + xmlEscape(sym) + " = " + std::to_string(v);
    s += ".</p>\n<h2>Devices</h2>\n" + devicesTable(r) + deviceBarSvg(r);
    if (!r.devices.empty())
        s += "<h2>Pick</h2>\n<p><b>" + xmlEscape(r.devices[r.pick].device) + "</b>: " + xmlEscape(r.pickReason) +
             ".</p>\n";
    if (r.sweep) {
        s += "<h2>Cost vs " + xmlEscape(r.sweep->symbol) + "</h2>\n" + sweepChartSvg(r);
        for (const std::string& c : r.sweep->crossovers)
            s += "<p>" + xmlEscape(c) + "</p>\n";
    }
    if (!r.measuredSource.empty())
        s += "<p>Measured times from <code>" + xmlEscape(r.measuredSource) + "</code>.</p>\n";
    s += "<h2>Costliest nodes</h2>\n" + nodeTable(r, r.top);
    if (!r.devices.empty())
        s += "<h2>Diagram (" + xmlEscape(r.devices[r.pick].device) + ")</h2>\n<div class=\"diagram\">" +
             diagramSvg(r, r.pick) + "</div>\n";
    std::vector<std::size_t> all(r.nodes.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    s += "<h2>All nodes</h2>\n" + nodeTable(r, all) + "</body></html>\n";
    return s;
}

} // namespace costscope
