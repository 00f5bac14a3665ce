// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <atomic>
#include <functional>

namespace costscope {

struct MeasureOptions {
    int warmupRuns = 3;
    int timedRuns = 20;
    bool perNode = false; // adds one instrumented run after the timed runs
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int done, int total)> progress; // after each timed run, on the measuring thread
};

// Plain timing (warm-up runs, then timed whole-graph runs) and, if asked, one instrumented run; the outputs of
// the last run are read back. The plan must have its parameters and inputs set.
Result<RunResult> measure(ExecutablePlan& plan, const MeasureOptions& options);

} // namespace costscope
