// SPDX-License-Identifier: MIT
#pragma once
// Saved measurements for the evaluation (costscope-cli evaluate --save-runs / --runs): every measured run with its
// graph (RLX HIR JSON, node ids kept), bindings, per-node times, whole-graph median and host speed, plus the device's
// calibrated profile. A cost-model change can then be judged on one device's measurements again, on any machine,
// without re-measuring: the measured side stays fixed, only the predictions move.
#include "analysis/device_profile.h"
#include "train/family_holdout.h"

#include <string>
#include <vector>

namespace costscope {

inline constexpr int kEvalRunsVersion = 1;

struct SavedEvalRuns {
    std::string backend, device; // where the runs were measured
    DeviceProfile profile;       // the calibrated profile the runs were measured under
    std::vector<EvalRun> runs;
};

std::string writeEvalRuns(const SavedEvalRuns& saved);
// Errors name what is wrong and where (run index, graph); `origin` names the file in messages.
Result<SavedEvalRuns> parseEvalRuns(const std::string& text, const std::string& origin);

} // namespace costscope
