// SPDX-License-Identifier: MIT
// A build with XGBoost: training goes through the plugin libcostscope_train.so, loaded on first use
// (train/train_plugin.h says why).
#include "plugins/shared_module.h"
#include "train/train_plugin.h"

#include <cstdlib>

namespace costscope {

namespace {
Result<const TrainPlugin*> loadTrainPlugin()
{
    // XGBoost's OpenMP threads (libgomp, which reads this when the plugin loads it) otherwise spin between parallel
    // regions: on a busy 2-core host `evaluate --runs` took minutes instead of 15 s, and a calibration's spinning
    // trainers would take cores from whatever the machine measures next. A user's own setting wins.
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    return loadPluginEntry<const TrainPlugin>("libcostscope_train.so", kTrainPluginEntry, COSTSCOPE_TRAIN_PLUGIN_ABI);
}

Result<const TrainPlugin*> trainPlugin()
{
    static const Result<const TrainPlugin*> loaded = loadTrainPlugin();
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
