// SPDX-License-Identifier: MIT
#pragma once
// The evaluation that cannot flatter us (issue 20), as one use case for costscope-cli evaluate and the Run panel's
// Calibration tab: the zoo's families (and graph files), the kernel sampler's training graphs, measured on one device
// and predicted leave-one-family-out (train/family_holdout.h) beside RLX parity.
#include "evaluation/zoo_runs.h"
#include "train/family_holdout.h"

#include <atomic>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace costscope {

struct DeviceEvaluationOptions {
    std::string backend = "cpu";
    DeviceIndex device = 0;
    std::set<std::string> families; // empty: every zoo family
    std::vector<std::int64_t> batches = {1, 8};
    bool zoo = true, sampler = true;
    std::vector<PlannedGraph> files; // graph files (filePlan), each its folder's family
    double maxGflop = 0;             // 0: 4 on the CPU, 2000 on a GPU
    double perGraphS = 0;            // 0: 0.4 s on the CPU, 0.3 s on a GPU
    // Seconds of measuring the sampler's graphs, which come in rotation over the kernel classes so that a short
    // budget still samples every class (as calibrate --predictor-budget); 0: all of them.
    double samplerBudgetS = 0;
    bool progressLines = false; // a line per graph on stderr (the CLI)
    std::function<void(std::size_t done, std::size_t total)> onProgress;
    const std::atomic<bool>* cancel = nullptr;
};

struct DeviceEvaluation {
    EvaluationReport report;
    std::vector<EvalRun> runs; // what was measured (evaluate --save-runs writes them)
};

// `calibrated`: the device's calibrated profile (its predictors are retrained without each held-out family).
Result<DeviceEvaluation> evaluateOnDevice(Backend& backend, const DeviceProfile& calibrated,
                                          const DeviceEvaluationOptions& options);

// The leave-one-family-out report of runs measured earlier (evaluate --runs), for `backend`'s RLX parity profile.
// asIs: the profile as it is, nothing refitted (evaluateProfileAsIs: a transferred profile on the target's runs).
Result<EvaluationReport> evaluateRuns(const std::vector<EvalRun>& runs, const DeviceProfile& calibrated,
                                      const std::string& backend, bool asIs = false);

} // namespace costscope
