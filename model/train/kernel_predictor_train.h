// SPDX-License-Identifier: MIT
#pragma once
// Training of the kernel predictors with XGBoost (libxgboost-dev): one gradient-boosted regressor per kernel class
// on log(measured / analytic). Only the entry points that calibrate or evaluate link this (costscope_train); the
// model library evaluates the trained trees itself (kernel_predictor.h says why).
#include "analysis/kernel_predictor.h"

#include <string>
#include <vector>

namespace costscope {

struct PredictorTrainOptions {
    int minSamples = 12; // a class with fewer samples gets no predictor (the analytic terms price it)
    int rounds = 120;
    int maxDepth = 5;
    double eta = 0.1;
    double minChildWeight = 0.0; // per-sample weights sum to about one per run, so this stays small
    int threads = 0;             // 0: the host's cores, at most 8 (see kernel_predictor_train.cpp)
    unsigned seed = 7;
};

// One predictor per class in `samples`; a class with too few samples is left out and named in `skipped`.
struct PredictorTraining {
    KernelPredictors predictors;
    std::vector<std::string> skipped;
};
Result<PredictorTraining> trainKernelPredictors(const std::vector<KernelSample>& samples,
                                                const PredictorTrainOptions& options = {});

// XGBoost's own margins for `rows` under the predictor's model (its C API, not the tree walk of kernel_predictor.cpp):
// the reference the tests hold that walk to.
Result<std::vector<double>> xgboostMargins(const KernelPredictor& predictor, const std::vector<KernelFeatures>& rows);

// Whether this build has XGBoost (false: trainKernelPredictors returns an error saying so). Where it has, training
// still fails, naming the file, when the plugin that holds XGBoost (libcostscope_train.so) is not installed.
bool predictorTrainingAvailable();

} // namespace costscope
