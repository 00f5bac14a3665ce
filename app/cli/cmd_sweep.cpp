// SPDX-License-Identifier: MIT
#include "analysis/gate_sweep.h"
#include "analysis/sweep.h"
#include "cli/analysis_options.h"
#include "cli/analysis_setup.h"
#include "cli/commands.h"
#include "cli/load.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>

namespace costscope::cli {

namespace {

using Json = nlohmann::ordered_json;

void printCsv(const SweepRequest& req, const SweepResult& r)
{
    std::cout << req.symbol;
    for (const DeviceProfile& p : req.profiles)
        std::cout << ',' << p.name;
    std::cout << ",pick\n" << std::setprecision(17);
    for (std::size_t v = 0; v < r.values.size(); ++v) {
        std::cout << r.values[v];
        for (double t : r.totalNs[v])
            std::cout << ',' << t;
        std::cout << ',' << req.profiles[r.pick[v]].name << '\n';
    }
}

void printGatesText(const SweepRequest& req, const std::vector<GateCurve>& gates)
{
    std::cout << "\nfusion-gate score of fusing the nodes (ns; * = fuse)\n" << std::setw(10) << req.symbol;
    for (const GateCurve& c : gates)
        std::cout << std::setw(15) << c.label;
    std::cout << '\n' << std::setprecision(0);
    for (std::size_t v = 0; v < req.values.size(); ++v) {
        std::cout << std::setw(10) << req.values[v];
        for (const GateCurve& c : gates)
            std::cout << std::setw(14) << c.scoreNs[v] << (c.fuse[v] ? '*' : ' ');
        std::cout << '\n';
    }
    std::cout << std::setw(10) << "min gain";
    for (const GateCurve& c : gates)
        std::cout << std::setw(14) << c.minGainNs << ' ';
    std::cout << '\n';
}

void printText(const SweepRequest& req, const SweepResult& r)
{
    std::cout << std::setw(10) << req.symbol;
    for (const DeviceProfile& p : req.profiles)
        std::cout << " " << std::setw(20) << p.name;
    std::cout << "   pick (totals in us)\n" << std::fixed << std::setprecision(1);
    for (std::size_t v = 0; v < r.values.size(); ++v) {
        std::cout << std::setw(10) << r.values[v];
        for (double t : r.totalNs[v])
            std::cout << " " << std::setw(20) << t / 1000.0;
        std::cout << "   " << deviceName(req.profiles[r.pick[v]].device) << '\n';
    }
    for (const Crossover& c : r.crossovers)
        std::cout << c.text << '\n';
    for (std::size_t p = 0; p < req.profiles.size(); ++p)
        if (!r.ranked[p])
            std::cout << req.profiles[p].name << ' ' << leftOutReason(req.profiles[p].calibration, req.rlxVersion)
                      << '\n';
}

} // namespace

int cmdSweep(const std::vector<std::string>& argv)
{
    std::string err;
    std::set<std::string> options = kAnalysisOptions;
    options.insert({"symbol", "values", "gates"});
    auto args = Args::parse(argv, {"json", "csv"}, options, &err);
    if (!args || args->positional().size() != 1 || !args->option("values")
        || (args->option("gates") && args->flag("csv"))) {
        std::cerr << "usage: costscope-cli sweep FILE --values 1,2,4|1:65536:x2|1:64:+8 [--symbol batch] [--device D]..."
                     " [--model rlx|costscope] [--profile NAME|FILE]... [--bind SYM=N]... [--gates 3,4,5]"
                     " [--rlx-version V] [--json|--csv]\n"
                     "--gates: the RLX fusion-gate score per target of fusing these nodes, at each value"
                     " (not with --csv)\n"
                  << kRlxVersionUsage << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    std::optional<std::vector<std::int64_t>> gateNodes;
    if (auto text = args->option("gates"); text && !(gateNodes = idList(*text, &err))) {
        std::cerr << err << '\n';
        return kUsage;
    }
    const std::string& path = args->positional()[0];
    auto values = parseSweepValues(*args->option("values"));
    if (!values) {
        std::cerr << values.error().message << '\n';
        return kUsage;
    }
    int code = kOk;
    auto setup = analysisSetup(*args, &code);
    if (!setup)
        return code;
    auto loaded = loadForCommand(path, args->flag("json") || args->flag("csv"));
    if (!loaded)
        return kBadInput;

    SweepRequest req;
    req.symbol = args->option("symbol").value_or("batch");
    req.values = std::move(*values);
    req.base = setup->bindings;
    req.profiles = setup->profiles;
    req.rlxVersion = setup->rlxVersion;
    const SweepResult r = runSweep(loaded->graph, *setup->model, req);
    std::vector<GateCurve> gates;
    if (gateNodes) {
        auto curves = fuseGateSweep(loaded->graph, *gateNodes, req.symbol, req.values, req.base);
        if (!curves) {
            std::cerr << curves.error().format(path) << '\n';
            return kUsage;
        }
        gates = std::move(*curves);
    }

    if (args->flag("csv")) {
        printCsv(req, r);
        return kOk;
    }
    if (!args->flag("json")) {
        printText(req, r);
        if (gateNodes)
            printGatesText(req, gates);
        return kOk;
    }
    Json j;
    j["model"] = setup->model->name();
    j["rlx_version"] = std::string(rlxVersionName(req.rlxVersion));
    j["symbol"] = req.symbol;
    j["values"] = req.values;
    j["devices"] = Json::array();
    for (std::size_t p = 0; p < req.profiles.size(); ++p) {
        Json totals = Json::array();
        for (const auto& row : r.totalNs)
            totals.push_back(row[p]);
        j["devices"].push_back({{"device", std::string(deviceName(req.profiles[p].device))},
                                {"profile", req.profiles[p].name},
                                {"calibration", std::string(calibrationName(req.profiles[p].calibration))},
                                {"ranked", bool(r.ranked[p])}, {"total_ns", totals}});
    }
    j["picks"] = Json::array();
    for (std::size_t pick : r.pick)
        j["picks"].push_back(std::string(deviceName(req.profiles[pick].device)));
    j["crossovers"] = Json::array();
    for (const Crossover& c : r.crossovers)
        j["crossovers"].push_back({{"from", req.profiles[c.from].name}, {"to", req.profiles[c.to].name},
                                   {"at", c.at}, {"first_value", c.firstValue}, {"picked", c.picked},
                                   {"text", c.text}});
    if (gateNodes) {
        Json targets = Json::array();
        for (const GateCurve& c : gates)
            targets.push_back({{"target", c.label}, {"min_gain_ns", c.minGainNs}, {"score_ns", c.scoreNs},
                               {"should_fuse", c.fuse}});
        j["gates"] = {{"nodes", *gateNodes}, {"targets", targets}};
    }
    std::cout << j.dump(2) << '\n';
    return kOk;
}

} // namespace costscope::cli
