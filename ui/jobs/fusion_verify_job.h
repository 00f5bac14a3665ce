// SPDX-License-Identifier: MIT
#pragma once
#include "fusion_verified.h"
#include "usecases/run_and_compare.h"

#include <atomic>
#include <functional>

namespace costscope {

// On the calling (worker) thread: the Run panel's request run unfused and fused (one warm-up run and `runs` timed
// runs each, then per-node times) and verified against the predictions (verifyFusion, under the Costscope profile
// predictRun chooses, as costscope-cli run --fusion compare does). `progress` counts the timed runs of both.
Result<FusionVerification> verifyFusionOf(const RunRequest& request, const std::atomic<bool>* cancel,
                                          const std::function<void(int done, int total)>& progress);

} // namespace costscope
