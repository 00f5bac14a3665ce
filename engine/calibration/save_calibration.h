// SPDX-License-Identifier: MIT
#pragma once

#include "calibration/cpu_calibrate.h"

#include <string>

namespace costscope {

struct SavedProfile {
    DeviceProfile profile;
    std::string path;
};

// Keeps a calibrated profile (calibrateDevice's, any backend) as the user device profile of its name.
Result<SavedProfile> saveCalibratedProfile(DeviceProfile profile);
// The stamps a calibration carries: this host's name and the UTC time ("2026-11-24T13:05Z").
std::string calibrationHost();
std::string calibrationDate();

} // namespace costscope
