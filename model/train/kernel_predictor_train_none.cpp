// SPDX-License-Identifier: MIT
// A build without XGBoost: trained predictors in a profile are still used (kernel_predictor.cpp); training says why
// it cannot run.
#include "train/kernel_predictor_train.h"

namespace costscope {

bool predictorTrainingAvailable()
{
    return false;
}

Result<PredictorTraining> trainKernelPredictors(const std::vector<KernelSample>&, const PredictorTrainOptions&)
{
    return Diagnostic::error("this build has no XGBoost (libxgboost-dev): kernel predictors cannot be trained; the "
                             "analytic cost terms price every kernel");
}

Result<std::vector<double>> xgboostMargins(const KernelPredictor&, const std::vector<KernelFeatures>&)
{
    return Diagnostic::error("this build has no XGBoost (libxgboost-dev)");
}

} // namespace costscope
