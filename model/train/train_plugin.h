// SPDX-License-Identifier: MIT
#pragma once
// XGBoost (with its libdmlc and libgomp) is a plugin, libcostscope_train.so, that costscope_train loads the first time
// it trains: linked into the binaries it cost every CLI call its loading and relocation although only calibrate,
// fit and evaluate train. The plugin and costscope_train are built from the same sources by the same compiler, and
// C++ types cross the boundary; the ABI string keeps a plugin of another build from being used.
#include "train/kernel_predictor_train.h"

#define COSTSCOPE_TRAIN_PLUGIN_ABI ("costscope-train-plugin-1 " COSTSCOPE_VERSION " " __VERSION__)

namespace costscope {

struct TrainPlugin {
    Result<PredictorTraining> (*trainKernelPredictors)(const std::vector<KernelSample>& samples,
                                                       const PredictorTrainOptions& options);
    Result<std::vector<double>> (*xgboostMargins)(const KernelPredictor& predictor,
                                                  const std::vector<KernelFeatures>& rows);
};

// The one symbol the plugin exports: `extern "C" const TrainPlugin* costscope_train_plugin(const char* abi)`, nullptr
// when `abi` is not its own COSTSCOPE_TRAIN_PLUGIN_ABI.
inline constexpr const char* kTrainPluginEntry = "costscope_train_plugin";

// What the plugin hands out: kernel_predictor_train.h's functions, through XGBoost's C API.
namespace xgb {
Result<PredictorTraining> trainKernelPredictors(const std::vector<KernelSample>& samples,
                                                const PredictorTrainOptions& options);
Result<std::vector<double>> xgboostMargins(const KernelPredictor& predictor, const std::vector<KernelFeatures>& rows);
} // namespace xgb

} // namespace costscope
