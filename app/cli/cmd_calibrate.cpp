// SPDX-License-Identifier: MIT
// costscope-cli calibrate: microbenchmarks of a backend's device, saved as a user device profile (by default
// "calibrated-<backend>", the profile `run` compares against when no --profile is given).
#include "analysis/profile_io.h"
#include "calibration/calibrate_device.h"
#include "calibration/save_calibration.h"
#include "cli/args.h"
#include "cli/calibrate_all_devices.h"
#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/remote_commands.h"
#include "cli/remote_options.h"
#include "evaluation/calibrate_with_predictors.h"
#include "train/family_holdout.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageLine =
    "usage: costscope-cli calibrate [--backend cpu|cuda|vulkan] [--device N|all|ID] [--quick] [--save NAME] [--json]\n"
    "                               [--no-predictors] [--predictor-budget S]\n"
    "         [--remote USER@HOST[:PORT] ...]  (on a remote host; saved here as HOST/calibrated-BACKEND)\n"
    "--device ID: cuda:0 or local/cuda:0 here, HOST/cuda:0 on the host of --remote\n"
    "--device all: one profile per device, calibrated-<backend>-<model>-<PCI bus id> (no --save); exit 3 only when "
    "every device fails";

} // namespace

int cmdCalibrate(const std::vector<std::string>& argv)
{
    std::string err;
    auto remote = takeRemoteOptions(argv, &err);
    if (remote)
        if (const int code = resolveDeviceId(*remote, &err); code != kOk) {
            std::cerr << (code == kUsage ? std::string(kUsageLine) + "\n" : "costscope-cli calibrate: ") << err << '\n';
            return code;
        }
    auto args = remote ? Args::parse(remote->rest, {"quick", "json", "no-predictors"},
                                     {"backend", "save", "device", "predictor-budget"}, &err)
                       : std::nullopt;
    if (!args || !args->positional().empty()) {
        std::cerr << kUsageLine << '\n' << (err.empty() ? "unexpected positional argument" : err) << '\n';
        return kUsage;
    }
    const std::string backendName = args->option("backend").value_or("cpu");
    const std::string deviceText = args->option("device").value_or("0");
    double predictorBudgetS = 0; // 0: the default for the device and --quick
    if (auto b = args->option("predictor-budget")) {
        predictorBudgetS = parseDouble(*b).value_or(-1);
        if (predictorBudgetS <= 0) {
            std::cerr << kUsageLine << "\n--predictor-budget takes seconds\n";
            return kUsage;
        }
    }
    if (deviceText == "all") {
        if (args->option("save")) {
            std::cerr << kUsageLine << "\n--device all names each profile itself; it takes no --save\n";
            return kUsage;
        }
        return calibrateAllDevices(backendName, args->flag("quick"), args->flag("json"), !args->flag("no-predictors"),
                                   predictorBudgetS);
    }
    const std::int64_t device = parseInt(deviceText).value_or(-1);
    if (device < 0) {
        std::cerr << kUsageLine << "\n--device takes a device index (0, 1, ...), got '" << deviceText << "'\n";
        return kUsage;
    }
    if (remote->remote) {
        std::vector<std::string> predictorArgs; // the remote calibrate learns the predictors as asked here
        if (args->flag("no-predictors"))
            predictorArgs.push_back("--no-predictors");
        if (auto b = args->option("predictor-budget"))
            predictorArgs.insert(predictorArgs.end(), {"--predictor-budget", *b});
        return calibrateOnRemote(*remote->remote, backendName, static_cast<DeviceIndex>(device), args->flag("quick"),
                                 args->option("save").value_or(""), args->flag("json"), predictorArgs);
    }
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
    CalibrationRequest request;
    request.device.backend = backendName;
    request.device.device = static_cast<DeviceIndex>(device);
    request.device.quick = args->flag("quick");
    const std::string name = args->option("save").value_or("calibrated-" + backendName);
    request.device.name = name;
    request.predictors = !args->flag("no-predictors");
    request.predictorBudgetS = predictorBudgetS;
    std::string warning;
    auto measured = calibrateWithPredictors(**backend, request, &warning);
    if (!warning.empty())
        std::cerr << "warning: " << warning << '\n';
    if (!measured) {
        std::cerr << "costscope-cli calibrate: " << measured.error().message << '\n';
        return kBadInput;
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
