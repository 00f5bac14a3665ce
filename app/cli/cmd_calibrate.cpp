// SPDX-License-Identifier: MIT
// costscope-cli calibrate: microbenchmarks of a backend's device, saved as a user device profile (by default
// "calibrated-<backend>", the profile `run` compares against when no --profile is given).
#include "analysis/profile_io.h"
#include "calibration/save_calibration.h"
#include "cli/args.h"
#include "cli/commands.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageLine = "usage: costscope-cli calibrate --backend cpu [--quick] [--save NAME] [--json]";

void printFigures(const CpuCalibration& c)
{
    std::cout << "device:        " << c.device << " (" << c.numThreads << " threads)\nsgemm (GFLOP/s):\n";
    for (const SgemmPoint& p : c.sgemm)
        std::cout << "  " << p.m << 'x' << p.k << 'x' << p.n << "  " << p.gflops << '\n';
    std::cout << "read bw:       " << c.readBw << " GB/s\nwrite bw:      " << c.writeBw << " GB/s\ncopy bw:       "
              << c.copyBw << " GB/s\ndispatch:      " << c.dispatchNs << " ns/node\nroundtrip:     " << c.roundtripNs
              << " ns\nreadback bw:   " << c.hostReadbackBw << " GB/s\n";
}
} // namespace

int cmdCalibrate(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {"quick", "json"}, {"backend", "save"}, &err);
    if (!args || !args->positional().empty()) {
        std::cerr << kUsageLine << '\n' << (err.empty() ? "unexpected positional argument" : err) << '\n';
        return kUsage;
    }
    const std::string backend = args->option("backend").value_or("cpu");
    if (backend != "cpu") {
        std::cerr << "costscope-cli calibrate: backend '" << backend
                  << "' cannot be calibrated by this command (only cpu)\n";
        return kUsage;
    }
    CpuCalibrationOptions options;
    options.quick = args->flag("quick");
    auto c = calibrateCpu(options);
    if (!c) {
        std::cerr << "costscope-cli calibrate: " << c.error().message << '\n';
        return kBadInput;
    }
    const std::string name = args->option("save").value_or("calibrated-" + backend);
    auto saved = saveCpuCalibration(*c, name, "costscope-cli calibrate");
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
    printFigures(*c);
    std::cout << "saved profile '" << name << "' to " << saved->path << '\n';
    return kOk;
}

} // namespace costscope::cli
