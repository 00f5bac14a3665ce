// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace costscope::cli {

// costscope-cli calibrate --device all: every device of the backend in turn, each saved as its own profile
// (deviceProfileName: calibrated-<backend>-<model>-<PCI bus id>), which `run` then predicts that device under.
// Each profile gets its kernel predictors (calibrateWithPredictors) unless `predictors` is false; predictorBudgetS 0:
// the default budget. A device that fails is named with its error and the others are still saved; exit 3 only when
// all fail.
int calibrateAllDevices(const std::string& backend, bool quick, bool json, bool predictors, double predictorBudgetS);

} // namespace costscope::cli
