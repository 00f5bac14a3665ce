// SPDX-License-Identifier: MIT
#include "cli/report_output.h"

#include "cli/args.h"
#include "formats/graph_file.h"
#include "report/report_svg.h"
#include "report/report_writers.h"

#ifdef COSTSCOPE_HAVE_RENDER
#include "render/render.h"
#endif

#include <iostream>

namespace costscope::cli {

bool renderingAvailable()
{
#ifdef COSTSCOPE_HAVE_RENDER
    return true;
#else
    return false;
#endif
}

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
#ifdef COSTSCOPE_HAVE_RENDER
    std::string err;
    if (format == "png" && !render::svgToPng(diagramSvg(r, r.pick), path, &err)) {
        std::cerr << path << ": " << err << '\n';
        return kBadInput;
    }
    if (format == "pdf" && !render::htmlToPdf(reportHtml(r), path, &err)) {
        std::cerr << path << ": " << err << '\n';
        return kBadInput;
    }
    if (format == "png" || format == "pdf")
        return kOk;
#endif
    if (bytes.empty()) {
        std::cerr << "this build has no PNG/PDF rendering (Qt not found)\n";
        return kUsage;
    }
    if (auto w = writeFileAtomic(path, bytes); !w) {
        std::cerr << path << ": " << w.error().message << '\n';
        return kBadInput;
    }
    return kOk;
}

} // namespace costscope::cli
