// SPDX-License-Identifier: MIT
#include "usecases/report_export.h"

#include "analysis/sweep.h"
#include "formats/graph_file.h"
#include "report/report_svg.h"
#include "report/report_writers.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace costscope {

Result<Report> buildAnalysisReport(const Graph& g, const ReportRequest& request)
{
    if (!request.model || request.profiles.empty())
        return Diagnostic::error("a report needs a cost model and at least one device profile");
    std::vector<GraphCost> costs;
    for (const DeviceProfile& p : request.profiles)
        costs.push_back(request.model->estimate(g, p, request.bindings));
    Report r = buildReport(g, costs,
                           {g.name.empty() ? request.source : g.name, request.source, request.model->name(),
                            request.bindings, request.topN, request.rlxVersion});
    std::string text = request.sweepValues;
    if (text.empty()) {
        const auto syms = g.symbols();
        if (std::find(syms.begin(), syms.end(), request.sweepSymbol) == syms.end())
            return r;
        text = "1:256:x2";
    }
    auto values = parseSweepValues(text);
    if (!values)
        return Diagnostic::error("bad --sweep '" + text + "': " + values.error().message);
    SweepRequest sweep;
    sweep.symbol = request.sweepSymbol;
    sweep.values = *values;
    sweep.base = request.bindings;
    sweep.base.erase(request.sweepSymbol);
    sweep.profiles = request.profiles;
    sweep.rlxVersion = request.rlxVersion;
    attachSweep(r, runSweep(g, *request.model, sweep), request.sweepSymbol);
    return r;
}

const std::vector<std::string>& reportFormats()
{
    static const std::vector<std::string> formats = {"html", "pdf", "csv", "json", "node-data", "svg", "png"};
    return formats;
}

std::string reportFormatOfPath(const std::string& path)
{
    std::string lower = path;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string nodeData = ".nodedata.json";
    if (lower.size() >= nodeData.size()
        && lower.compare(lower.size() - nodeData.size(), nodeData.size(), nodeData) == 0)
        return "node-data";
    const std::string ext = std::filesystem::path(lower).extension().string();
    return ext.empty() ? std::string() : ext.substr(1);
}

Result<bool> writeReport(const Report& r, const std::string& format, const std::string& path,
                         const RendererSource& renderer)
{
    if (format == "png" || format == "pdf") {
        auto plugin = renderer();
        if (!plugin)
            return plugin.error();
        std::string err;
        const bool written = format == "png" ? (*plugin)->svgToPng(reportDiagramSvg(r), path, &err)
                                             : (*plugin)->htmlToPdf(reportHtml(r), path, &err);
        if (!written)
            return Diagnostic::error(err);
        return true;
    }
    std::string bytes;
    if (format == "html")
        bytes = reportHtml(r);
    else if (format == "csv")
        bytes = reportCsv(r);
    else if (format == "json")
        bytes = reportJson(r);
    else if (format == "node-data")
        bytes = reportNodeData(r, r.pick);
    else if (format == "svg")
        bytes = reportDiagramSvg(r);
    else
        return Diagnostic::error("unknown report format '" + format
                                 + "' (html, pdf, csv, json, node-data, svg or png; *.nodedata.json for node-data)");
    return writeFileAtomic(path, bytes);
}

} // namespace costscope
