// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <atomic>
#include <functional>

namespace costscope {

struct MeasureOptions {
    int warmupRuns = 3;
    int timedRuns = 20;
    bool perNode = false; // adds instrumented runs after the timed runs
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int done, int total)> progress; // after each timed run, on the measuring thread
    // Instrumented runs with perNode: up to this many, each node's time the median over them; the runs after the
    // first stop once the instrumented runs have taken instrumentedBudgetS seconds (a 30 s graph runs once). One
    // run's time of a microsecond node is noise: options_bundle_only's node times summed to 1.5x its median run.
    int instrumentedRuns = 5;
    double instrumentedBudgetS = 1.0;
};

// Compiles `g` for `device`, uploads its parameters and sets `inputs` (one per plan input, in order).
Result<std::unique_ptr<ExecutablePlan>> preparePlan(Backend& backend, const Graph& g, const Bindings& bindings,
                                                    DeviceIndex device, const std::vector<HostTensor>& inputs);

// Plain timing (warm-up runs, then timed whole-graph runs) and, if asked, instrumented runs; the outputs of
// the last run are read back. The plan must have its parameters and inputs set.
Result<RunResult> measure(ExecutablePlan& plan, const MeasureOptions& options);

} // namespace costscope
