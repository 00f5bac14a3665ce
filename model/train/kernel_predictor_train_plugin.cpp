// SPDX-License-Identifier: MIT
// A build with XGBoost: training goes through the plugin libcostscope_train.so, loaded on first use
// (train/train_plugin.h says why).
#include "plugins/shared_module.h"
#include "train/train_plugin.h"

namespace costscope {

namespace {
Result<const TrainPlugin*> trainPlugin()
{
    static const Result<const TrainPlugin*> loaded =
        loadPluginEntry<const TrainPlugin>("libcostscope_train.so", kTrainPluginEntry, COSTSCOPE_TRAIN_PLUGIN_ABI);
    if (!loaded)
        return Diagnostic::error("XGBoost is unavailable: " + loaded.error().message);
    return loaded;
}
} // namespace

bool predictorTrainingAvailable()
{
    return true;
}

Result<PredictorTraining> trainKernelPredictors(const std::vector<KernelSample>& samples,
                                                const PredictorTrainOptions& options)
{
    auto plugin = trainPlugin();
    if (!plugin)
        return plugin.error();
    return (*plugin)->trainKernelPredictors(samples, options);
}

Result<std::vector<double>> xgboostMargins(const KernelPredictor& predictor, const std::vector<KernelFeatures>& rows)
{
    auto plugin = trainPlugin();
    if (!plugin)
        return plugin.error();
    return (*plugin)->xgboostMargins(predictor, rows);
}

} // namespace costscope
