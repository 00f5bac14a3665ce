// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <string>

namespace costscope {

// The user profile `calibrate --device all` saves for one device: calibrated-<backend>-<model>-<PCI bus id>
// ("calibrated-cuda-nvidia-h100-80gb-hbm3-0000-3b-00-0"), so that two cards of one host, alike or not, keep
// theirs apart. A device without a PCI bus id is named by its index instead ("...-llvmpipe-dev0").
std::string deviceProfileName(const DeviceInfo& device);

// The profile a run on `device` is predicted under when none is named: deviceProfileName(device) where the user
// has that profile, else "" (predictRun's own choice: calibrated-<backend>, else RLX parity).
std::string calibratedProfileOf(const DeviceInfo& device);

} // namespace costscope
