// SPDX-License-Identifier: MIT
#pragma once
// The kernel predictors' part of a calibration (analysis/kernel_predictor.h), shared by costscope-cli calibrate and
// the GUI's "Calibrate this device": the kernel sampler's graphs and the zoo's, smallest first so that every family
// is sampled within the budget, measured per node through the backend's own kernels and learned with XGBoost.
#include "analysis/device_profile.h"
#include "backend.h"

#include <atomic>
#include <functional>
#include <string>

namespace costscope {

struct PredictorCalibrationOptions {
    DeviceIndex device = 0;
    bool quick = false;
    double budgetS = 0; // measuring time; 0: defaultPredictorBudgetS
    std::function<void(std::size_t done, std::size_t total)> onProgress;
    const std::atomic<bool>* cancel = nullptr;
};

// Seconds of measuring: 20 (quick) or 150 on a GPU, 25 or 240 on the CPU.
double defaultPredictorBudgetS(Device device, bool quick);

// `profile` (just calibrated) with trained predictors and the graph composition; `figures` gets a line per class.
// An error when nothing could be measured or trained; a build without XGBoost says so (predictorTrainingAvailable).
Result<DeviceProfile> withMeasuredPredictors(Backend& backend, const DeviceProfile& profile,
                                             const PredictorCalibrationOptions& options, std::string& figures);

} // namespace costscope
