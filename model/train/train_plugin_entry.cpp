// SPDX-License-Identifier: MIT
// libcostscope_train.so's one exported symbol (train/train_plugin.h).
#include "train/train_plugin.h"

#include <string_view>

extern "C" __attribute__((visibility("default"))) const costscope::TrainPlugin* costscope_train_plugin(const char* abi)
{
    static const costscope::TrainPlugin plugin{costscope::xgb::trainKernelPredictors, costscope::xgb::xgboostMargins};
    return std::string_view(abi) == COSTSCOPE_TRAIN_PLUGIN_ABI ? &plugin : nullptr;
}
