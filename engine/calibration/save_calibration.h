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

} // namespace costscope
