// SPDX-License-Identifier: MIT
#include "cli/analysis_setup.h"
#include "cli/commands.h"
#include "cli/load.h"
#include "cli/renderer.h"

#include "interop/trace_import.h"
#include "usecases/report_export.h"

#include <algorithm>
#include <iostream>

namespace costscope::cli {

namespace {

constexpr const char* kUsageText =
    "usage: costscope-cli report FILE --format html|pdf|csv|json|node-data|svg|png -o OUT [--device D]... "
    "[--profile P]... [--model rlx|costscope] [--bind SYM=N]... [--measured TRACE.json] [--sweep VALUES] "
    "[--measured-device D] [--symbol batch] [--top N] [--rlx-version 0.2.16|0.2.14]";

} // namespace

int cmdReport(const std::vector<std::string>& argvIn)
{
    std::vector<std::string> argv = argvIn;
    std::replace(argv.begin(), argv.end(), std::string("-o"), std::string("--output"));
    std::set<std::string> options = kAnalysisOptions;
    options.insert({"format", "output", "measured", "measured-device", "sweep", "symbol", "top"});
    std::string err;
    auto args = Args::parse(argv, {}, options, &err);
    if (!args || args->positional().size() != 1 || !args->option("format") || !args->option("output")) {
        std::cerr << kUsageText << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    const std::string format = *args->option("format");
    const auto& formats = reportFormats();
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
        std::cerr << "unknown --format '" << format << "' (html, pdf, csv, json, node-data, svg or png)\n";
        return kUsage;
    }
    if (format == "pdf" || format == "png")
        if (auto renderer = loadRenderer(); !renderer) {
            std::cerr << "costscope-cli report: " << renderer.error().message << '\n';
            return kBadInput;
        }
    std::size_t topN = 10;
    if (auto t = args->option("top")) {
        try {
            topN = std::stoul(*t);
        } catch (const std::exception&) {
            std::cerr << "bad --top '" << *t << "': expected a count\n";
            return kUsage;
        }
    }
    int code = kOk;
    auto setup = analysisSetup(*args, &code);
    if (!setup)
        return code;
    const std::string& path = args->positional()[0];
    auto loaded = loadForCommand(path, true);
    if (!loaded)
        return kBadInput;
    const Graph& g = loaded->graph;

    auto report =
        buildAnalysisReport(g, {path, setup->model.get(), setup->profiles, setup->bindings, setup->rlxVersion, topN,
                                args->option("symbol").value_or("batch"), args->option("sweep").value_or("")});
    if (!report) {
        std::cerr << report.error().message << '\n';
        return kUsage;
    }
    Report& r = *report;
    if (auto measured = args->option("measured")) {
        auto trace = loadTrace(*measured);
        if (!trace) {
            std::cerr << trace.error().message << '\n';
            return kBadInput;
        }
        const TraceMatch m = matchTrace(g, *trace);
        std::cerr << *measured << ": " << m.matchedNodes << " node(s) matched, " << m.unmatchedEvents.size()
                  << " event name(s) unmatched, " << m.unmatchedNodes.size() << " node(s) without an event\n";
        std::optional<std::size_t> device;
        if (auto name = args->option("measured-device")) {
            for (std::size_t i = 0; i < r.devices.size(); ++i)
                if (r.devices[i].device == *name)
                    device = i;
            if (!device) {
                std::cerr << "--measured-device " << *name << " is not one of the analysed devices\n";
                return kUsage;
            }
        }
        attachMeasured(r, m.measuredNs, *measured, device);
    }
    const std::string out = *args->option("output");
    if (auto written = writeReport(r, format, out, loadRenderer); !written) {
        std::cerr << out << ": " << written.error().message << '\n';
        return kBadInput;
    }
    return kOk;
}

} // namespace costscope::cli
