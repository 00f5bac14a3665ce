// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/run_predictions.h"
#include "backend.h"
#include "measure.h"

#include <string>

namespace costscope {

// Times a prepared plan and, where asked (`probeHost`) and the Costscope profile of `predictions` holds a probe of
// its own calibration, re-times the profile's reference kernels before and after (about 50 ms each on the CPU) on
// the same device, on every backend, and prices the Costscope prediction again at the host's speed now
// (adjustForHost). A failed probe leaves the host-adjusted prediction out and says why in *probeProblem; the run
// still counts. Used by costscope-cli run and the GUI's Run panel (runAndCompare).
Result<RunResult> measureHostAdjusted(Backend& backend, DeviceIndex device, ExecutablePlan& plan,
                                      const MeasureOptions& options, const Graph& g, const Bindings& bindings,
                                      RunPredictions& predictions, bool probeHost, std::string* probeProblem);

} // namespace costscope
