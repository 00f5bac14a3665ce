// SPDX-License-Identifier: MIT
// costscope-cli fit: per-op-class corrections of the Costscope model from runs saved by `run --per-node --json`.
#include "analysis/profile_fit.h"
#include "analysis/profile_library.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load.h"
#include "usecases/run_json_comparison.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageLine =
    "usage: costscope-cli fit --profile NAME RUN.json... [--weight-by-time] [--prior-runs 2] [--json]";

// One run file as a measured run; the graph is re-read from the path the run recorded.
Result<MeasuredRun> runFromJson(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        return Diagnostic::error("cannot read the run file");
    std::stringstream text;
    text << in.rdbuf();
    try {
        const auto j = nlohmann::ordered_json::parse(text.str());
        auto g = graphOfRunJson(j);
        if (!g)
            return g.error();
        if (j.at("per_node").empty())
            return Diagnostic::error("no per-node times (run it with --per-node)");
        MeasuredRun run;
        run.graph = std::make_shared<const Graph>(std::move(*g));
        run.bindings = j.value("bindings", Bindings{});
        for (const auto& n : j.at("per_node"))
            run.nodes.emplace_back(n.at("id").get<NodeId>(), n.at("measured_ns").get<double>());
        run.wholeNs = j.at("whole").at("median_ns").get<double>();
        if (j.contains("host_speed")) {
            const auto& h = j.at("host_speed");
            run.host = {h.at("gemm").get<double>(), h.at("kernel").get<double>(), h.at("memory").get<double>(),
                        h.at("dispatch").get<double>()};
        }
        return run;
    } catch (const nlohmann::ordered_json::exception& e) {
        return Diagnostic::error(std::string("not a run JSON file: ") + e.what());
    }
}

void printStats(const char* what, const ErrorStats& before, const ErrorStats& after)
{
    std::cout << what << " (" << before.count << "): MAPE " << before.mape << " % -> " << after.mape
              << " %, within 10 % " << before.within10 * 100 << " % -> " << after.within10 * 100
              << " %, within 25 % " << before.within25 * 100 << " % -> " << after.within25 * 100 << " %\n";
}
} // namespace

int cmdFit(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {"json", "weight-by-time"}, {"profile", "prior-runs"}, &err);
    if (!args || !args->option("profile") || args->positional().empty()) {
        std::cerr << kUsageLine << '\n' << (err.empty() ? "needs --profile NAME and at least one RUN.json" : err) << '\n';
        return kUsage;
    }
    FitOptions options;
    if (auto prior = args->option("prior-runs")) {
        const double v = parseDouble(*prior).value_or(-1.0);
        if (!(v >= 0) || !std::isfinite(v)) {
            std::cerr << kUsageLine << "\n--prior-runs needs a number >= 0 (runs' worth of weight toward factor 1), got '"
                      << *prior << "'\n";
            return kUsage;
        }
        options.priorRuns = v;
    }
    auto lib = ProfileLibrary::load(ProfilePaths::defaults());
    const DeviceProfile* found = lib.find(*args->option("profile"));
    if (!found) {
        std::cerr << "costscope-cli fit: no device profile named '" << *args->option("profile") << "'\n";
        return kUsage;
    }
    std::vector<MeasuredRun> runs;
    for (const std::string& path : args->positional()) {
        auto run = runFromJson(path);
        if (!run) {
            std::cerr << run.error().format(path) << '\n';
            return kBadInput;
        }
        runs.push_back(std::move(*run));
    }
    options.weightByTime = args->flag("weight-by-time");
    const auto [profile, report] = fitProfileCorrections(*found, runs, options);
    auto saved = lib.saveUserProfile(profile);
    if (!saved) {
        std::cerr << "costscope-cli fit: " << saved.error().message << '\n';
        return kBadInput;
    }
    if (args->flag("json")) {
        auto stats = [](const ErrorStats& e) {
            return nlohmann::ordered_json{{"count", e.count}, {"mape", e.mape}, {"within_10", e.within10},
                                          {"within_25", e.within25}};
        };
        nlohmann::ordered_json j{{"profile", profile.name}, {"saved_to", *saved}, {"corrections", report.corrections},
                                 {"samples", report.samples}};
        j["nodes"] = {{"before", stats(report.nodesBefore)}, {"after", stats(report.nodesAfter)}};
        j["graphs"] = {{"before", stats(report.graphsBefore)}, {"after", stats(report.graphsAfter)}};
        std::cout << j.dump(2) << '\n';
        return kOk;
    }
    for (const auto& [cls, f] : report.corrections)
        std::cout << "  " << cls << ": x" << f << " (" << report.samples.at(cls) << " samples)\n";
    printStats("per node", report.nodesBefore, report.nodesAfter);
    printStats("whole graph", report.graphsBefore, report.graphsAfter);
    std::cout << "saved profile '" << profile.name << "' to " << *saved << '\n';
    return kOk;
}

} // namespace costscope::cli
