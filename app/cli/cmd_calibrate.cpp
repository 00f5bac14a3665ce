// SPDX-License-Identifier: MIT
// costscope-cli calibrate: microbenchmarks of a backend's device, saved as a user device profile (by default
// "calibrated-<backend>", the profile `run` compares against when no --profile is given).
#include "analysis/profile_io.h"
#include "calibration/calibrate_device.h"
#include "calibration/save_calibration.h"
#include "cli/args.h"
#include "cli/calibrate_all_devices.h"
#include "cli/commands.h"
#include "cli/remote_commands.h"
#include "cli/remote_options.h"
#include "cli/zoo_runs.h"
#include "train/family_holdout.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageLine =
    "usage: costscope-cli calibrate [--backend cpu|cuda|vulkan] [--device N|all] [--quick] [--save NAME] [--json]\n"
    "                               [--no-predictors] [--predictor-budget S]\n"
    "         [--remote USER@HOST[:PORT] ...]  (on a remote host; saved here as HOST/calibrated-BACKEND)\n"
    "--device all: one profile per device, calibrated-<backend>-<model>-<PCI bus id> (no --save); exit 3 only when "
    "every device fails";

// The kernel predictors (analysis/kernel_predictor.h): the kernel sampler's graphs and the zoo's, smallest first so
// that every family is sampled within the budget, measured per node through the backend's own kernels and learned with
// XGBoost.
Result<DeviceProfile> withPredictors(Backend& backend, DeviceIndex device, const DeviceProfile& profile, bool quick,
                                     double budgetS, std::string& figures)
{
    const bool cpu = profile.device == Device::Cpu;
    std::vector<PlannedGraph> plan =
        zooPlan({}, quick ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{1, 8});
    std::vector<std::pair<double, std::size_t>> order;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        double elements = 0; // the size of its tensors: a cheap proxy for its time
        for (const Node& n : plan[i].graph->nodes)
            elements += double(n.shape.elements().value_or(0));
        order.emplace_back(elements, i);
    }
    std::sort(order.begin(), order.end());
    // The sampler's configurations first (they span the kernel classes), then the zoo's graphs, smallest first.
    std::vector<PlannedGraph> sorted = samplerPlan(cpu ? (quick ? 0.05 : 0.2) : 50.0);
    for (const auto& [size, i] : order)
        sorted.push_back(plan[i]);
    PlanMeasureOptions o;
    o.device = device;
    o.maxGflop = cpu ? (quick ? 0.5 : 3.0) : (quick ? 100.0 : 2000.0);
    o.perGraphS = quick ? 0.05 : 0.2;
    o.totalS = budgetS;
    o.progress = false;
    std::vector<std::string> skipped;
    const std::vector<EvalRun> runs = measurePlan(backend, sorted, profile, o, skipped);
    std::vector<std::string> notes;
    auto trained = withTrainedPredictors(profile, runs, {}, &notes);
    if (!trained)
        return trained.error();
    DeviceProfile out = profile;
    out.kernelPredictors = trained->kernelPredictors;
    out.graphComposition = trained->graphComposition;
    char line[160];
    std::snprintf(line, sizeof line, "kernel predictors from %zu measured sampler and zoo graphs (%zu skipped):\n",
                  runs.size(), skipped.size());
    figures += line;
    for (const auto& [cls, k] : *out.kernelPredictors) {
        std::snprintf(line, sizeof line, "  %-12s %5d kernels, %.1f %% mean error on them\n", cls.c_str(), k.samples,
                      k.trainMape);
        figures += line;
    }
    if (out.graphComposition.valid()) {
        std::snprintf(line, sizeof line, "  whole graph = %.2f x kernels' sum %+.0f ns a kernel %+.0f ns\n",
                      out.graphComposition.kernelScale, out.graphComposition.perKernelNs, out.graphComposition.fixedNs);
        figures += line;
    }
    for (const std::string& n : notes)
        figures += "  " + n + "\n";
    return out;
}
} // namespace

int cmdCalibrate(const std::vector<std::string>& argv)
{
    std::string err;
    auto remote = takeRemoteOptions(argv, &err);
    auto args = remote ? Args::parse(remote->rest, {"quick", "json", "no-predictors"},
                                     {"backend", "save", "device", "predictor-budget"}, &err)
                       : std::nullopt;
    if (!args || !args->positional().empty()) {
        std::cerr << kUsageLine << '\n' << (err.empty() ? "unexpected positional argument" : err) << '\n';
        return kUsage;
    }
    const std::string backendName = args->option("backend").value_or("cpu");
    const std::string deviceText = args->option("device").value_or("0");
    if (deviceText == "all") {
        if (args->option("save")) {
            std::cerr << kUsageLine << "\n--device all names each profile itself; it takes no --save\n";
            return kUsage;
        }
        return calibrateAllDevices(backendName, args->flag("quick"), args->flag("json"));
    }
    const std::int64_t device = parseInt(deviceText).value_or(-1);
    if (device < 0) {
        std::cerr << kUsageLine << "\n--device takes a device index (0, 1, ...), got '" << deviceText << "'\n";
        return kUsage;
    }
    if (remote->remote)
        return calibrateOnRemote(*remote->remote, backendName, static_cast<DeviceIndex>(device), args->flag("quick"),
                                 args->option("save").value_or(""), args->flag("json"));
    auto backend = loadBackend(backendName);
    if (!backend) {
        std::cerr << "costscope-cli calibrate: " << backend.error().message << " (see costscope-cli devices)\n";
        return isKnownBackend(backendName) ? kBadInput : kUsage;
    }
    if (static_cast<std::size_t>(device) >= (*backend)->devices().size()) {
        std::cerr << "costscope-cli calibrate: backend " << backendName << " has no device " << device
                  << " (see costscope-cli devices)\n";
        return kBadInput;
    }
    DeviceCalibrationOptions options;
    options.backend = backendName;
    options.device = static_cast<DeviceIndex>(device);
    options.quick = args->flag("quick");
    const std::string name = args->option("save").value_or("calibrated-" + backendName);
    options.name = name;
    auto measured = calibrateDevice(options);
    if (!measured) {
        std::cerr << "costscope-cli calibrate: " << measured.error().message << '\n';
        return kBadInput;
    }
    if (!args->flag("no-predictors")) {
        const bool cpu = backendName == "cpu";
        const double budget =
            parseDouble(
                args->option("predictor-budget").value_or(options.quick ? (cpu ? "25" : "20") : (cpu ? "240" : "150")))
                .value_or(-1);
        if (budget <= 0) {
            std::cerr << kUsageLine << "\n--predictor-budget takes seconds\n";
            return kUsage;
        }
        if (!predictorTrainingAvailable()) {
            std::cerr << "warning: this build has no XGBoost: no kernel predictors; the analytic terms price every "
                         "kernel\n";
        } else if (auto p = withPredictors(**backend, options.device, measured->profile, options.quick, budget,
                                           measured->figures)) {
            measured->profile = std::move(*p);
        } else {
            std::cerr << "costscope-cli calibrate: kernel predictors: " << p.error().message << '\n';
            return kBadInput;
        }
    }
    auto saved = saveCalibratedProfile(measured->profile);
    if (!saved) {
        std::cerr << "costscope-cli calibrate: " << saved.error().message << '\n';
        return kBadInput;
    }
    if (args->flag("json")) {
        auto j = nlohmann::ordered_json::parse(profileToJsonText(saved->profile));
        j["saved_to"] = saved->path;
        std::cout << j.dump(2) << '\n';
        return kOk;
    }
    std::cout << measured->figures << "saved profile '" << name << "' to " << saved->path << '\n';
    return kOk;
}

} // namespace costscope::cli
