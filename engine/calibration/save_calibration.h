// SPDX-License-Identifier: MIT
#pragma once

#include "calibration/cpu_calibrate.h"

#include <string>

namespace costscope {

struct SavedProfile {
    DeviceProfile profile;
    std::string path;
};

// Keeps a CPU calibration the way costscope-cli calibrate and the GUI's "Calibrate this device" both do: as the
// user device profile `name`, stamped with this host, the UTC time and the `tool` that measured it.
Result<SavedProfile> saveCpuCalibration(const CpuCalibration& c, const std::string& name, const std::string& tool);
// Keeps any calibrated profile as the user device profile of its name (the GPU backends' calibrations).
Result<SavedProfile> saveCalibratedProfile(DeviceProfile profile);
// The stamps a calibration carries: this host's name and the UTC time ("2026-11-24T13:05Z").
std::string calibrationHost();
std::string calibrationDate();

} // namespace costscope
