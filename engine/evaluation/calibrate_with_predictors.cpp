// SPDX-License-Identifier: MIT
#include "calibrate_with_predictors.h"

#include "train/kernel_predictor_train.h"

namespace costscope {

Result<DeviceCalibration> calibrateWithPredictors(Backend& backend, const CalibrationRequest& request,
                                                  std::string* warning)
{
    auto calibration = calibrateDevice(request.device);
    if (!calibration || !request.predictors)
        return calibration;
    if (!predictorTrainingAvailable()) {
        if (warning)
            *warning = "this build has no XGBoost: no kernel predictors; the analytic terms price every kernel";
        return calibration;
    }
    PredictorCalibrationOptions po;
    po.device = request.device.device;
    po.quick = request.device.quick;
    po.budgetS = request.predictorBudgetS > 0 ? request.predictorBudgetS
                                              : defaultPredictorBudgetS(calibration->profile.device, po.quick);
    po.cancel = request.device.cancel;
    if (const auto& progress = request.device.progress)
        po.onProgress = [progress](std::size_t done, std::size_t total) { progress(int(done), int(total)); };
    auto learned = withMeasuredPredictors(backend, calibration->profile, po, calibration->figures);
    if (!learned)
        return Diagnostic::error("kernel predictors: " + learned.error().message);
    calibration->profile = std::move(*learned);
    return calibration;
}

} // namespace costscope
