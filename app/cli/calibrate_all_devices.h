// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace costscope::cli {

// costscope-cli calibrate --device all: every device of the backend in turn, each saved as its own profile
// (deviceProfileName: calibrated-<backend>-<model>-<PCI bus id>), which `run` then predicts that device under.
// A device that fails is named with its error and the others are still saved; exit 3 only when all fail.
int calibrateAllDevices(const std::string& backend, bool quick, bool json);

} // namespace costscope::cli
