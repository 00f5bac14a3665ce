// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "analysis/pick_rule.h"
#include "render/render_plugin.h"
#include "report/report.h"

#include <functional>
#include <string>
#include <vector>

namespace costscope {

// What a report is built from: costscope-cli report's options, the GUI's File → Export with the analysis settings.
struct ReportRequest {
    std::string source; // the graph file
    const CostModel* model = nullptr;
    std::vector<DeviceProfile> profiles; // at least one
    Bindings bindings;
    RlxVersion rlxVersion = kDefaultRlxVersion;
    std::size_t topN = 10;
    std::string sweepSymbol = "batch";
    // Sweep values ("1:256:x2"); empty: 1:256:x2 when the graph has the sweep symbol, else no sweep.
    std::string sweepValues;
};

// Costs on every profile, the report, and its sweep chart. An error names bad sweep values.
Result<Report> buildAnalysisReport(const Graph& g, const ReportRequest& request);

// The formats a report is written in: html, pdf, csv, json, node-data (Model Explorer), svg (the diagram), png.
const std::vector<std::string>& reportFormats();
// The format a file name asks for: "node-data" for *.nodedata.json, else its extension in lower case.
std::string reportFormatOfPath(const std::string& path);

// Where PNG and PDF are rendered: costscope-cli loads the renderer plugin on first use (it brings Qt Gui), the GUI
// links the renderer. Only called for png and pdf.
using RendererSource = std::function<Result<const render::RenderPlugin*>()>;
// Writes the report in `format` to `path` (atomically where the bytes are ours); an error says what failed.
Result<bool> writeReport(const Report& r, const std::string& format, const std::string& path,
                         const RendererSource& renderer);

} // namespace costscope
