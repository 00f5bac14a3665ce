// SPDX-License-Identifier: MIT
#pragma once
#include "run_comparison.h"
#include <atomic>
#include <functional>

namespace costscope {

// What the Run panel asks for: the open graph with the window's bindings, on one device, `runs` timed runs.
struct RunRequest {
    std::shared_ptr<const Graph> graph;
    Bindings bindings;
    std::string backend = "cpu";
    DeviceIndex device = 0;
    int runs = 10;
};

// On the calling (worker) thread: compiles for the device, uploads parameters, feeds the ONNX suite's inputs
// (arange(n)/n), makes one warm-up run, `runs` timed runs and one instrumented run between two host probes
// (measureHostAdjusted, the rule costscope-cli run follows too), and compares the result with both models.
// `cancel` is checked between nodes, so a cancelled run ends within one node's time; `progress` gets (done, total)
// after each timed run.
Result<RunComparison> runAndCompare(const RunRequest& request, const std::atomic<bool>* cancel,
                                    const std::function<void(int done, int total)>& progress);

} // namespace costscope
