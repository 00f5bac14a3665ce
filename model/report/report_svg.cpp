// SPDX-License-Identifier: MIT
#include "report/report_svg.h"

#include "layout/layered_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace costscope {

namespace {

constexpr double kBoxW = 150, kBoxH = 40, kMargin = 20;
const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string svgOpen(double w, double h)
{
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) + "\" height=\"" + num(h) +
           "\" viewBox=\"0 0 " + num(w) + ' ' + num(h) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
}

std::string text(double x, double y, const std::string& s, const char* anchor = "start", const char* fill = "#222")
{
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\" fill=\"" + fill + "\">" +
           xmlEscape(s) + "</text>\n";
}

std::string shortLabel(const std::string& s)
{
    return s.size() > 22 ? s.substr(0, 21) + "…" : s;
}

} // namespace

std::string xmlEscape(const std::string& s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string heatColor(double t)
{
    // Three stops of ColorBrewer's "Oranges", the same as the node-data gradient.
    static const double stops[3][3] = {{255, 245, 235}, {253, 141, 60}, {127, 39, 4}};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
    const int seg = t < 0.5 ? 0 : 1;
    const double f = (t - seg * 0.5) * 2;
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(std::lround(stops[seg][0] + f * (stops[seg + 1][0] - stops[seg][0]))),
                  int(std::lround(stops[seg][1] + f * (stops[seg + 1][1] - stops[seg][1]))),
                  int(std::lround(stops[seg][2] + f * (stops[seg + 1][2] - stops[seg][2]))));
    return buf;
}

std::string diagramSvg(const Report& r, std::size_t device)
{
    layout::LayoutInput in;
    for (const ReportNode& n : r.nodes)
        in.nodes.push_back({kBoxW, kBoxH, std::to_string(n.id)});
    for (std::size_t i = 0; i < r.nodes.size(); ++i)
        for (std::size_t src : r.nodes[i].inputs)
            in.edges.push_back({int(src), int(i)});
    const layout::LayoutResult lay = layout::layeredLayout(in);

    double lo = 0, hi = 0;
    for (const ReportNode& n : r.nodes)
        if (device < n.costNs.size() && n.costNs[device] > 0) {
            lo = lo == 0 ? n.costNs[device] : std::min(lo, n.costNs[device]);
            hi = std::max(hi, n.costNs[device]);
        }
    auto heat = [&](double c) {
        if (c <= 0 || hi <= lo)
            return c > 0 ? 1.0 : 0.0;
        return (std::log(c) - std::log(lo)) / (std::log(hi) - std::log(lo));
    };

    std::string s = svgOpen(lay.width + 2 * kMargin, lay.height + 2 * kMargin);
    s += "<g transform=\"translate(" + num(kMargin) + ',' + num(kMargin) + ")\">\n<g class=\"edges\" fill=\"none\" "
         "stroke=\"#888\" stroke-width=\"1.2\">\n";
    for (const auto& route : lay.routes) {
        s += "<polyline points=\"";
        for (const layout::Point& p : route)
            s += num(p.x) + ',' + num(p.y) + ' ';
        s += "\"/>\n";
    }
    s += "</g>\n<g class=\"nodes\">\n";
    for (std::size_t i = 0; i < r.nodes.size() && i < lay.centers.size(); ++i) {
        const ReportNode& n = r.nodes[i];
        const double c = device < n.costNs.size() ? n.costNs[device] : 0;
        const double t = heat(c);
        const double x = lay.centers[i].x - kBoxW / 2, y = lay.centers[i].y - kBoxH / 2;
        s += "<g><title>" + xmlEscape(n.name + " (" + n.op + "): " + reportTime(c)) + "</title><rect x=\"" + num(x) +
             "\" y=\"" + num(y) + "\" width=\"" + num(kBoxW) + "\" height=\"" + num(kBoxH) +
             "\" rx=\"4\" stroke=\"#444\" fill=\"" + heatColor(t) + "\"/>\n";
        const char* ink = t > 0.6 ? "#fff" : "#222";
        s += text(x + kBoxW / 2, y + 16, shortLabel(n.name.empty() ? n.op : n.name), "middle", ink);
        s += text(x + kBoxW / 2, y + 31, shortLabel(n.op) + " · " + reportTime(c), "middle", ink);
        s += "</g>\n";
    }
    s += "</g>\n</g>\n</svg>\n";
    return s;
}

std::string reportDiagramSvg(const Report& r)
{
    return r.canvasSvg.empty() ? diagramSvg(r, r.pick) : r.canvasSvg;
}

std::string sweepChartSvg(const Report& r)
{
    if (!r.sweep || r.sweep->values.empty())
        return {};
    const ReportSweep& sw = *r.sweep;
    const double w = 640, h = 320, left = 70, right = 130, top = 20, bottom = 40;
    double lo = 0, hi = 0;
    for (const auto& row : sw.totalNs)
        for (double v : row)
            if (v > 0) {
                lo = lo == 0 ? v : std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (hi <= 0)
        return {};
    if (hi <= lo)
        hi = lo * 10;
    // Both axes logarithmic: batch sizes and costs span decades. Value 0 sits at the left edge.
    const double xlo = std::log(double(std::max<std::int64_t>(1, sw.values.front())));
    const double xhi = std::max(xlo + 1e-9, std::log(double(std::max<std::int64_t>(1, sw.values.back()))));
    auto px = [&](std::int64_t v) { return left + (std::log(double(std::max<std::int64_t>(1, v))) - xlo) / (xhi - xlo) * (w - left - right); };
    auto py = [&](double ns) { return top + (1 - (std::log(std::max(ns, lo)) - std::log(lo)) / (std::log(hi) - std::log(lo))) * (h - top - bottom); };

    std::string s = svgOpen(w, h);
    s += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(w - left - right) + "\" height=\"" +
         num(h - top - bottom) + "\" fill=\"none\" stroke=\"#999\"/>\n";
    s += text(left, h - 8, sw.symbol + " " + std::to_string(sw.values.front()));
    s += text(w - right, h - 8, std::to_string(sw.values.back()), "end");
    s += text(left - 4, top + 10, reportTime(hi), "end");
    s += text(left - 4, h - bottom, reportTime(lo), "end");
    for (std::size_t d = 0; d < r.devices.size(); ++d) {
        const char* colour = kPalette[d % std::size(kPalette)];
        s += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + std::string(colour) + "\" points=\"";
        for (std::size_t i = 0; i < sw.values.size(); ++i)
            if (d < sw.totalNs[i].size())
                s += num(px(sw.values[i])) + ',' + num(py(sw.totalNs[i][d])) + ' ';
        s += "\"/>\n";
        s += text(w - right + 8, top + 14 + 16 * double(d), r.devices[d].device, "start", colour);
    }
    s += "</svg>\n";
    return s;
}

std::string deviceBarSvg(const Report& r)
{
    const double rowH = 26, left = 80, barMax = 400, w = left + barMax + 110;
    const double h = rowH * double(r.devices.size()) + 10;
    double hi = 0;
    for (const ReportDevice& d : r.devices)
        hi = std::max(hi, d.totalNs);
    std::string s = svgOpen(w, h);
    for (std::size_t i = 0; i < r.devices.size(); ++i) {
        const ReportDevice& d = r.devices[i];
        const double y = 5 + rowH * double(i);
        const double bw = hi > 0 ? d.totalNs / hi * barMax : 0;
        s += text(left - 6, y + 15, d.device, "end");
        s += "<rect x=\"" + num(left) + "\" y=\"" + num(y) + "\" width=\"" + num(bw) + "\" height=\"" + num(rowH - 8) +
             "\" fill=\"" + (i == r.pick ? "#2ca02c" : "#1f77b4") + "\"/>\n";
        s += text(left + bw + 6, y + 15, reportTime(d.totalNs));
    }
    s += "</svg>\n";
    return s;
}

} // namespace costscope
