// SPDX-License-Identifier: MIT
// costscope-cli evaluate: the cost models against measured runs of whole model families they were not fitted on
// (leave-one-family-out; train/family_holdout.h), on one device of a backend.
#include "analysis/profile_io.h"
#include "analysis/rlx_profiles.h"
#include "analysis/run_predictions.h"
#include "backend.h"
#include "calibration/calibrate_device.h"
#include "cli/analysis_setup.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/remote_commands.h"
#include "cli/remote_options.h"
#include "evaluation/device_evaluation.h"
#include "formats/graph_file.h"
#include "train/eval_report_json.h"
#include "train/eval_runs_io.h"
#include "train/family_holdout.h"
#include "zoo/model_zoo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>

namespace costscope::cli {

namespace {

constexpr const char* kUsageLine =
    "usage: costscope-cli evaluate [--backend cpu|cuda|vulkan] [--device N|ID] [--profile NAME] [--families F,G...]\n"
    "                              [--no-zoo] [--no-sampler] [--batches 1,8] [--max-gflop X] [--budget S] [--json] "
    "[--save-runs FILE] [--all-nodes] [DATA...]\n"
    "                              [--remote USER@HOST[:PORT] ...]  (on a remote host's device; no DATA files)\n"
    "       costscope-cli evaluate --runs FILE [--profile NAME] [--as-is] [--json]   (saved measurements, nothing is "
    "run;\n       --as-is: the profile's own predictors, nothing refitted, e.g. a transferred profile)";

// The non-empty items of a comma-separated option.
std::vector<std::string> listOption(const std::string& s)
{
    std::vector<std::string> items = splitCommas(s);
    std::erase(items, std::string());
    return items;
}

void printTable(const EvaluationReport& r, const std::string& device, const std::string& protocol)
{
    std::printf("\n%s on %s: %zu families (", protocol.c_str(), device.c_str(), r.families.size());
    for (std::size_t i = 0; i < r.families.size(); ++i)
        std::printf("%s%s", i ? ", " : "", r.families[i].c_str());
    std::printf(")\n\n| model                     | graphs | ±10 %% | ±25 %% | MAPE %% | nodes | nodes ±25 %% |\n");
    std::printf("|---------------------------|-------:|------:|------:|-------:|------:|------------:|\n");
    for (const ModelAccuracy& m : r.models)
        std::printf("| %-25s | %6d | %4.0f%% | %4.0f%% | %6.1f | %5d | %10.0f%% |\n", m.model.c_str(), m.graphs.count,
                    100 * m.graphs.within10, 100 * m.graphs.within25, m.graphs.mape, m.nodes.count,
                    100 * m.nodes.within25);
    std::printf("\nby held-out family (costscope learned; RLX parity's ±10 %% in brackets):\n\n"
                "| family       | graphs | ±10 %% [RLX] | ±25 %% | MAPE %% | nodes | nodes ±25 %% |\n"
                "|--------------|-------:|------------:|------:|-------:|------:|------------:|\n");
    for (const FamilyAccuracy& f : r.byFamily) {
        if (f.model != "costscope learned")
            continue;
        const auto rlx = std::find_if(r.byFamily.begin(), r.byFamily.end(), [&](const FamilyAccuracy& o) {
            return o.model == "rlx parity" && o.family == f.family;
        });
        const double rlx10 = rlx == r.byFamily.end() ? 0 : 100 * rlx->graphs.within10;
        std::printf("| %-12s | %6d | %4.0f%% [%3.0f%%] | %4.0f%% | %6.1f | %5d | %10.0f%% |\n", f.family.c_str(),
                    f.graphs.count, 100 * f.graphs.within10, rlx10, 100 * f.graphs.within25, f.graphs.mape,
                    f.nodes.count, 100 * f.nodes.within25);
    }
    std::printf("\nworst misses of the learned model:\n");
    for (const EvalPrediction& p : r.worst)
        std::printf("  %-12s %-32s b%-4lld predicted %10.3f ms, measured %10.3f ms (%+.0f%%)\n", p.family.c_str(),
                    p.graph.c_str(), static_cast<long long>(p.batch), p.predictedNs / 1e6, p.measuredNs / 1e6,
                    100 * p.error());
    std::printf("\nnodes the learned model misses by the most time:\n");
    for (const NodeMiss& n : r.worstNodes)
        std::printf("  %-12s %-32s b%-4lld node %-5lld %-28s predicted %9.1f us, measured %9.1f us\n", n.family.c_str(),
                    n.graph.c_str(), static_cast<long long>(n.batch), static_cast<long long>(n.node), n.op.c_str(),
                    n.predictedNs / 1e3, n.measuredNs / 1e3);
    for (const std::string& n : r.notes)
        std::printf("note: %s\n", n.c_str());
}

// The report as a table or JSON.
int printReport(const Args& args, const EvaluationReport& report, const std::string& profileName,
                const std::string& backendName, const std::string& deviceName,
                const std::string& protocol = "leave-one-family-out")
{
    if (args.flag("json")) {
        EvaluationReportHeader header{backendName, deviceName, profileName, protocol};
        header.allNodes = args.flag("all-nodes");
        std::cout << evaluationReportJson(report, header).dump(2) << '\n';
        return kOk;
    }
    printTable(report, backendName + " (" + deviceName + ", profile " + profileName + ")", protocol);
    return kOk;
}

// evaluate --runs FILE: the saved measurements of one device (evaluate --save-runs) judged again, nothing run. The
// profile they were measured under comes with them; --profile names another (a transferred one, say).
int evaluateSaved(const Args& args, const std::string& path)
{
    auto bytes = readFileBytes(path);
    if (!bytes) {
        std::cerr << "costscope-cli evaluate: " << path << ": " << bytes.error().message << '\n';
        return kBadInput;
    }
    auto saved = parseEvalRuns(*bytes, path);
    if (!saved) {
        std::cerr << "costscope-cli evaluate: " << saved.error().message << '\n';
        return kBadInput;
    }
    DeviceProfile calibrated = saved->profile;
    if (auto name = args.option("profile")) {
        std::string perr;
        auto p = resolveProfile(*name, &perr);
        if (!p) {
            std::cerr << "costscope-cli evaluate: " << perr << '\n';
            return kBadInput;
        }
        calibrated = std::move(*p);
    }
    auto report = evaluateRuns(saved->runs, calibrated, saved->backend, args.flag("as-is"));
    if (!report) {
        std::cerr << "costscope-cli evaluate: " << path << ": " << report.error().message << '\n';
        return kBadInput;
    }
    return printReport(args, *report, calibrated.name, saved->backend, saved->device,
                       args.flag("as-is") ? "profile as is" : "leave-one-family-out");
}

} // namespace

int cmdEvaluate(const std::vector<std::string>& argv)
{
    std::string err;
    auto remote = takeRemoteOptions(argv, &err);
    if (remote)
        if (const int code = resolveDeviceId(*remote, &err); code != kOk) {
            std::cerr << (code == kUsage ? std::string(kUsageLine) + "\n" : "costscope-cli evaluate: ") << err << '\n';
            return code;
        }
    auto args =
        remote ? Args::parse(
            remote->rest, {"json", "all-nodes", "no-zoo", "no-sampler", "as-is"},
            {"backend", "device", "profile", "families", "batches", "max-gflop", "budget", "runs", "save-runs"}, &err)
               : std::nullopt;
    if (args && remote->remote && !args->positional().empty()) {
        err = "DATA files are local: not with --remote (the zoo and the sampler run there)";
        args.reset();
    }
    if (args && remote->remote && (args->option("runs") || args->option("save-runs"))) {
        err = "--runs and --save-runs are local files: not with --remote";
        args.reset();
    }
    if (!args) {
        std::cerr << kUsageLine << '\n' << err << '\n';
        return kUsage;
    }
    if (auto runsFile = args->option("runs"))
        return evaluateSaved(*args, *runsFile);
    const std::string backendName = args->option("backend").value_or("cpu");
    const std::int64_t device = parseInt(args->option("device").value_or("0")).value_or(-1);
    std::vector<std::int64_t> batches;
    for (const std::string& b : listOption(args->option("batches").value_or("1,8")))
        if (auto v = parseInt(b); v && *v > 0)
            batches.push_back(*v);
        else {
            std::cerr << kUsageLine << "\n--batches takes positive integers, got '" << b << "'\n";
            return kUsage;
        }
    const double maxGflop =
        parseDouble(args->option("max-gflop").value_or(backendName == "cpu" ? "4" : "2000")).value_or(-1);
    const double budget =
        parseDouble(args->option("budget").value_or(backendName == "cpu" ? "0.4" : "0.3")).value_or(-1);
    if (device < 0 || batches.empty() || maxGflop <= 0 || budget <= 0) {
        std::cerr << kUsageLine << "\n--device, --max-gflop and --budget take non-negative numbers\n";
        return kUsage;
    }
    std::set<std::string> families;
    for (const std::string& f : listOption(args->option("families").value_or("")))
        families.insert(f);
    for (const std::string& f : families)
        if (auto all = zooFamilies(); std::find(all.begin(), all.end(), f) == all.end()) {
            std::cerr << kUsageLine << "\nunknown zoo family '" << f << "' (the zoo has:";
            for (const std::string& a : all)
                std::cerr << ' ' << a;
            std::cerr << ")\n";
            return kUsage;
        }

    if (remote->remote) // checked here first, so that a bad option is a usage error before any connection
        return evaluateOnRemote(*remote->remote, remote->rest);

    auto backend = loadBackend(backendName);
    if (!backend) {
        std::cerr << "costscope-cli evaluate: " << backend.error().message << " (see costscope-cli devices)\n";
        return isKnownBackend(backendName) ? kBadInput : kUsage;
    }
    if (static_cast<std::size_t>(device) >= (*backend)->devices().size()) {
        std::cerr << "costscope-cli evaluate: backend " << backendName << " has no device " << device << '\n';
        return kBadInput;
    }
    const std::string deviceName = (*backend)->devices()[static_cast<std::size_t>(device)].name;

    // The device's calibrated profile: named, the saved calibrated-<backend>, or a quick calibration now.
    DeviceProfile calibrated;
    const std::string profileName = args->option("profile").value_or("calibrated-" + backendName);
    std::string perr;
    if (auto p = resolveProfile(profileName, &perr)) {
        calibrated = std::move(*p);
    } else if (args->option("profile")) {
        std::cerr << "costscope-cli evaluate: " << perr << '\n';
        return kBadInput;
    } else {
        std::cerr << "evaluate: no profile '" << profileName << "': calibrating " << backendName << " now (--quick)\n";
        DeviceCalibrationOptions co;
        co.backend = backendName;
        co.device = static_cast<DeviceIndex>(device);
        co.quick = true;
        co.name = profileName;
        auto c = calibrateDevice(co);
        if (!c) {
            std::cerr << "costscope-cli evaluate: calibration failed: " << c.error().message << '\n';
            return kBadInput;
        }
        calibrated = std::move(c->profile);
    }
    auto files = filePlan(args->positional(), batches);
    if (!files) {
        std::cerr << "costscope-cli evaluate: " << files.error().message << '\n';
        return kBadInput;
    }
    DeviceEvaluationOptions eo;
    eo.backend = backendName;
    eo.device = static_cast<DeviceIndex>(device);
    eo.families = families;
    eo.batches = batches;
    eo.zoo = !args->flag("no-zoo");
    eo.sampler = !args->flag("no-sampler");
    eo.files = std::move(*files);
    eo.maxGflop = maxGflop;
    eo.perGraphS = budget;
    eo.progressLines = true;
    auto evaluation = evaluateOnDevice(**backend, calibrated, eo);
    if (!evaluation) {
        std::cerr << "costscope-cli evaluate: " << evaluation.error().message << '\n';
        return kBadInput;
    }
    if (auto path = args->option("save-runs")) {
        auto written = writeFileAtomic(*path, writeEvalRuns({backendName, deviceName, calibrated, evaluation->runs}));
        if (!written) {
            std::cerr << "costscope-cli evaluate: cannot save the runs to " << *path << ": " << written.error().message
                      << '\n';
            return kBadInput;
        }
    }
    return printReport(*args, evaluation->report, calibrated.name, backendName, deviceName);
}

} // namespace costscope::cli
