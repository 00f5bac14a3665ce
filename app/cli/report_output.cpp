// SPDX-License-Identifier: MIT
#include "cli/report_output.h"

#include "cli/args.h"
#include "formats/graph_file.h"
#include "report/report_svg.h"
#include "report/report_writers.h"
#include "cli/renderer.h"

#include <iostream>

namespace costscope::cli {

int writeReportOutput(const Report& r, const std::string& format, const std::string& path)
{
    std::string bytes;
    if (format == "json")
        bytes = reportJson(r);
    else if (format == "csv")
        bytes = reportCsv(r);
    else if (format == "html")
        bytes = reportHtml(r);
    else if (format == "node-data")
        bytes = reportNodeData(r, r.pick);
    else if (format == "svg")
        bytes = diagramSvg(r, r.pick);
    if (format == "png" || format == "pdf") {
        auto renderer = loadRenderer();
        if (!renderer) {
            std::cerr << renderer.error().message << '\n';
            return kBadInput;
        }
        std::string err;
        const bool written = format == "png" ? (*renderer)->svgToPng(diagramSvg(r, r.pick), path, &err)
                                             : (*renderer)->htmlToPdf(reportHtml(r), path, &err);
        if (!written) {
            std::cerr << path << ": " << err << '\n';
            return kBadInput;
        }
        return kOk;
    }
    if (auto w = writeFileAtomic(path, bytes); !w) {
        std::cerr << path << ": " << w.error().message << '\n';
        return kBadInput;
    }
    return kOk;
}

} // namespace costscope::cli
