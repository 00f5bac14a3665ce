// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"

#include <atomic>
#include <memory>

namespace costscope {

// A compiled micro-graph with its parameters uploaded and random inputs in [-1, 1) (fixed seed), ready to time.
Result<std::unique_ptr<ExecutablePlan>> readyPlan(Backend& backend, const Graph& g, DeviceIndex device = 0);

// Median wall time (ns) of `repeats` whole-graph runs after `warmupRuns` untimed ones.
Result<double> timeGraph(Backend& backend, const Graph& g, int warmupRuns, int repeats,
                         const std::atomic<bool>* cancel = nullptr, DeviceIndex device = 0);

} // namespace costscope
