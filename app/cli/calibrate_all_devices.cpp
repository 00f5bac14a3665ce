// SPDX-License-Identifier: MIT
#include "cli/calibrate_all_devices.h"

#include "calibration/device_profile_name.h"
#include "calibration/save_calibration.h"
#include "cli/args.h"
#include "evaluation/calibrate_with_predictors.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace costscope::cli {

int calibrateAllDevices(const std::string& backendName, bool quick, bool json, bool predictors, double predictorBudgetS)
{
    auto backend = loadBackend(backendName);
    if (!backend) {
        std::cerr << "costscope-cli calibrate: " << backend.error().message << " (see costscope-cli devices)\n";
        return isKnownBackend(backendName) ? kBadInput : kUsage;
    }
    const std::vector<DeviceInfo> devices = (*backend)->devices();
    if (devices.empty()) {
        std::cerr << "costscope-cli calibrate: backend " << backendName
                  << " has no devices (see costscope-cli devices)\n";
        return kBadInput;
    }
    auto list = nlohmann::ordered_json::array();
    int saved = 0;
    // One device at a time: a calibration measures the device's peak, which another one running beside it would
    // lower (shared host memory bandwidth, PCIe, CPU for launches).
    for (const DeviceInfo& d : devices) {
        nlohmann::ordered_json entry = {
            {"index", d.index}, {"name", d.name}, {"pci_bus_id", d.pciBusId}, {"profile", deviceProfileName(d)}};
        CalibrationRequest request;
        request.device.backend = backendName;
        request.device.device = d.index;
        request.device.quick = quick;
        request.device.name = deviceProfileName(d);
        request.predictors = predictors;
        request.predictorBudgetS = predictorBudgetS;
        std::string warning;
        auto measured = calibrateWithPredictors(**backend, request, &warning);
        if (!warning.empty() && &d == &devices.front()) // the build's, not the device's: said once
            std::cerr << "warning: " << warning << '\n';
        auto stored = measured ? saveCalibratedProfile(measured->profile) : Result<SavedProfile>(measured.error());
        const std::string where = backendName + ":" + std::to_string(d.index) + " (" + d.name + ")";
        if (!stored) {
            entry["error"] = stored.error().message;
            std::cerr << "costscope-cli calibrate: " << where << " failed: " << stored.error().message << '\n';
        } else {
            ++saved;
            entry["saved_to"] = stored->path;
            if (!json)
                std::cout << "=== " << where << (d.pciBusId.empty() ? "" : " at " + d.pciBusId) << '\n'
                          << measured->figures << "saved profile '" << request.device.name << "' to " << stored->path
                          << '\n';
        }
        list.push_back(std::move(entry));
    }
    if (json)
        std::cout << nlohmann::ordered_json{{"backend", backendName}, {"devices", list}}.dump(2) << '\n';
    return saved > 0 ? kOk : kBadInput;
}

} // namespace costscope::cli
