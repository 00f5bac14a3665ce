// SPDX-License-Identifier: MIT
#include "report/report_svg.h"
#include "report/report_writers.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>

namespace costscope {

namespace {

// Cells never wrap (QTextDocument, which prints the PDF, broke "Kernel launches" and long numbers mid-word in
// narrow columns); names and shapes are the only long cells and stay on one line too.
const char* const kCss = R"(body{font-family:sans-serif;margin:2em;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:1em 0;font-size:9pt}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;
white-space:nowrap}td:first-child,th:first-child,td.l{text-align:left}th{background:#f3f3f3}.pick{background:#e8f5e9}
.diagram{overflow:auto;border:1px solid #ddd;max-height:900px}h2{margin-top:1.6em}
)";

std::string ratio(double a, double b)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", b > 0 ? a / b : 0.0);
    return buf;
}

// "512 B", "2.0 KiB", "13.3 MiB": the exact counts are in the JSON and CSV.
std::string bytesText(std::uint64_t bytes)
{
    const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    std::size_t u = 0;
    while (v >= 1024 && u + 1 < std::size(units)) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

std::string devicesTable(const Report& r)
{
    // The measured columns only where a trace was attached: a page has no room for empty ones.
    const bool measured = std::any_of(r.devices.begin(), r.devices.end(),
                                      [](const ReportDevice& d) { return d.measuredTotalNs.has_value(); });
    std::string s = "<table><tr><th>Device</th><th>Profile</th><th>Predicted</th><th>Launches</th><th>Syncs</th>"
                    "<th>Host out</th><th>Device traffic</th>";
    s += measured ? "<th>Measured</th><th>Pred. / meas.</th></tr>\n" : "</tr>\n";
    for (std::size_t i = 0; i < r.devices.size(); ++i) {
        const ReportDevice& d = r.devices[i];
        s += std::string("<tr") + (i == r.pick ? " class=\"pick\"" : "") + "><td>" + xmlEscape(d.device)
             + "</td><td class=\"l\">" + xmlEscape(d.profile) + "</td><td>" + reportTime(d.totalNs) + "</td><td>"
             + std::to_string(d.io.kernelLaunches) + "</td><td>" + std::to_string(d.io.syncPoints) + "</td><td>"
             + bytesText(d.io.hostOutputBytes) + "</td><td>" + bytesText(d.io.deviceTrafficBytes) + "</td>";
        if (measured)
            s += "<td>" + (d.measuredTotalNs ? reportTime(*d.measuredTotalNs) : "") + "</td><td>"
                 + (d.measuredTotalNs ? ratio(d.totalNs, *d.measuredTotalNs) : "") + "</td>";
        s += "</tr>\n";
    }
    return s + "</table>\n";
}

// A printed page holds the node's columns and four devices; more devices continue in another table below.
constexpr std::size_t kDevicesPerTable = 4;
constexpr std::size_t kNameChars = 32;

// Long scoped names keep their end, which says the most ("…attn.c_attn/MatMul"); the full name is the tooltip.
std::string nameCell(const std::string& name)
{
    if (name.size() <= kNameChars)
        return "<td class=\"l\">" + xmlEscape(name) + "</td>";
    std::size_t cut = name.size() - (kNameChars - 1);
    while (cut < name.size() && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) // not inside a UTF-8 character
        ++cut;
    return "<td class=\"l\" title=\"" + xmlEscape(name) + "\">…" + xmlEscape(name.substr(cut)) + "</td>";
}

// A device's column: its name, or its profile's where another device has the same name (RLX's Cuda and a
// datasheet's both say "Cuda").
std::string columnName(const Report& r, std::size_t d)
{
    const auto same = std::count_if(r.devices.begin(), r.devices.end(),
                                    [&](const ReportDevice& o) { return o.device == r.devices[d].device; });
    return same > 1 ? r.devices[d].profile : r.devices[d].device;
}

std::string nodeRow(const Report& r, const ReportNode& n, std::size_t firstDevice, std::size_t endDevice)
{
    std::string s = "<tr><td>" + std::to_string(n.id) + "</td>" + nameCell(n.name) + "<td class=\"l\">"
                    + xmlEscape(n.op) + "</td><td class=\"l\">" + xmlEscape(n.shape) + "</td>";
    for (std::size_t d = firstDevice; d < endDevice; ++d)
        s += "<td>" + (n.skipped ? std::string("not costed") : reportTime(n.costNs[d])) + "</td>";
    if (endDevice == r.devices.size())
        s += "<td>" + (n.measuredNs ? reportTime(*n.measuredNs) : std::string()) + "</td>";
    return s + "</tr>\n";
}

std::string nodeTable(const Report& r, const std::vector<std::size_t>& rows)
{
    std::string s;
    for (std::size_t first = 0; first < std::max<std::size_t>(r.devices.size(), 1); first += kDevicesPerTable) {
        const std::size_t end = std::min(first + kDevicesPerTable, r.devices.size());
        s += "<table><tr><th>Id</th><th>Name</th><th>Op</th><th>Shape</th>";
        for (std::size_t d = first; d < end; ++d)
            s += "<th>" + xmlEscape(columnName(r, d)) + "</th>";
        if (end == r.devices.size())
            s += "<th>Measured</th>";
        s += "</tr>\n";
        for (std::size_t i : rows)
            s += nodeRow(r, r.nodes[i], first, end);
        s += "</table>\n";
    }
    return s;
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
        s += "<h2>Diagram (" + xmlEscape(r.canvasSvg.empty() ? r.devices[r.pick].device : r.canvasDevice)
             + ")</h2>\n<div class=\"diagram\">" + reportDiagramSvg(r) + "</div>\n";
    std::vector<std::size_t> all(r.nodes.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    s += "<h2>All nodes</h2>\n" + nodeTable(r, all) + "</body></html>\n";
    return s;
}

} // namespace costscope
