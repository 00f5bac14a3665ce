// SPDX-License-Identifier: MIT
#pragma once
// One graph measured the way the cost model is judged and trained: warmed up as real runs are, a plain
// whole-graph median, then instrumented runs for per-node times (evaluate, the predictor samples of calibrate,
// bench_accuracy).
#include "analysis/profile_fit.h"
#include "backend.h"

#include <atomic>

namespace costscope {

struct FitMeasureOptions {
    DeviceIndex device = 0;
    double budgetS = 1.0; // about how long the timed runs may take (at least 3 runs, at most 15)
    const std::atomic<bool>* cancel = nullptr;
};

Result<MeasuredRun> measureForFit(Backend& backend, std::shared_ptr<const Graph> g,
                                  const FitMeasureOptions& options = {});

} // namespace costscope
