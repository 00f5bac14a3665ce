// SPDX-License-Identifier: MIT
#pragma once
// A whole calibration of one device: its figures (calibration/calibrate_device.h), then the kernel predictors
// learned on the same device (predictor_calibration.h). One path for costscope-cli calibrate (one device or
// --device all) and the GUI's "Calibrate this device", so that no caller forgets the predictors.
#include "calibration/calibrate_device.h"
#include "predictor_calibration.h"

#include <string>

namespace costscope {

struct CalibrationRequest {
    DeviceCalibrationOptions device; // its cancel and progress serve the predictors' part too
    bool predictors = true;
    double predictorBudgetS = 0; // measuring time of the predictors' part; 0: defaultPredictorBudgetS
};

// `warning`, when given, gets a line where predictors were asked for but this build cannot train them (no XGBoost):
// the profile then prices every kernel with the analytic terms. An error names the part that failed.
Result<DeviceCalibration> calibrateWithPredictors(Backend& backend, const CalibrationRequest& request,
                                                  std::string* warning = nullptr);

} // namespace costscope
