// SPDX-License-Identifier: MIT
// costscope-cli sweep-runs: a grid of real runs (graphs × batches × devices) on a Ray cluster through its Jobs REST
// API, gathered into one JSON (and CSV). The sweep itself is engine/fleet/.
#include "cli/args.h"
#include "cli/commands.h"
#include "fleet/fleet_sweep.h"
#include "fleet/sweep_results.h"
#include "formats/graph_file.h"

#include <csignal>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace costscope::cli {

namespace {
constexpr const char* kUsageLine =
    "usage: costscope-cli sweep-runs --ray http://HEAD:8265 MANIFEST.json [--out RESULTS.json] [--csv RESULTS.csv]\n"
    "         [--retries N] [--max-in-flight N] [--job-timeout S]";

std::atomic<bool> g_cancelled{false};

void onInterrupt(int)
{
    g_cancelled.store(true);
}

bool writeOrSay(const std::string& path, const std::string& text)
{
    if (auto w = writeFileAtomic(path, text); !w) {
        std::cerr << w.error().format(path) << '\n';
        return false;
    }
    return true;
}
} // namespace

int cmdSweepRuns(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {}, {"ray", "out", "csv", "retries", "max-in-flight", "job-timeout"}, &err);
    if (!args || args->positional().size() != 1 || !args->option("ray")) {
        std::cerr << kUsageLine << '\n' << (err.empty() ? "expected --ray URL and one MANIFEST" : err) << '\n';
        return kUsage;
    }
    const std::string path = args->positional()[0];
    std::ifstream in(path);
    if (!in) {
        std::cerr << path << ": cannot be read\n";
        return kBadInput;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto manifest = parseSweepManifest(text.str(), path);
    if (!manifest) {
        std::cerr << manifest.error().message << '\n';
        return kBadInput;
    }
    for (auto [name, target, lo] :
         {std::tuple{"retries", &manifest->retries, 0}, std::tuple{"max-in-flight", &manifest->maxInFlight, 1}})
        if (auto v = args->option(name)) {
            const auto n = parseInt(*v);
            if (!n || *n < lo) {
                std::cerr << kUsageLine << "\n--" << name << " expects an integer >= " << lo << '\n';
                return kUsage;
            }
            *target = static_cast<int>(*n);
        }
    if (auto v = args->option("job-timeout")) {
        const auto n = parseInt(*v);
        if (!n || *n < 1) {
            std::cerr << kUsageLine << "\n--job-timeout expects seconds >= 1\n";
            return kUsage;
        }
        manifest->jobTimeout = std::chrono::seconds(*n);
    }
    const std::string url = *args->option("ray");
    FleetSweepOptions options;
    options.sweepId = "costscope-" + std::to_string(std::time(nullptr)) + '-' + std::to_string(::getpid());
    options.cancel = &g_cancelled;
    options.onProgress = [](const std::string& line) { std::cerr << "sweep-runs: " << line << '\n'; };
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::cerr << "sweep-runs: " << manifest->cells().size() << " runs on " << url << " as " << options.sweepId
              << "-*\n";
    auto results = runFleetSweep(RayJobsClient(url), *manifest, options);
    if (!results) {
        std::cerr << "costscope-cli sweep-runs: " << results.error().message << '\n';
        return kBadInput;
    }
    const std::string json = sweepResultsJson(*results, url);
    if (auto out = args->option("out")) {
        if (!writeOrSay(*out, json))
            return kBadInput;
    } else {
        std::cout << json;
    }
    if (auto csv = args->option("csv"); csv && !writeOrSay(*csv, sweepResultsCsv(*results)))
        return kBadInput;
    std::size_t failed = 0;
    for (const SweepCellResult& r : *results)
        failed += !r.succeeded;
    if (failed)
        std::cerr << "sweep-runs: " << failed << " of " << results->size() << " runs failed after their retries\n";
    return failed ? kBadInput : kOk;
}

} // namespace costscope::cli
