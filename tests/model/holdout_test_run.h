// SPDX-License-Identifier: MIT
#pragma once
// Leave-one-family-out as the predictors' tests run it: one training thread, classes of three samples and up, and
// RLX parity priced under the same profile.
#include "train/family_holdout.h"

namespace costscope::test {

inline Result<EvaluationReport> evaluateHeldOut(const std::vector<EvalRun>& runs, const DeviceProfile& p)
{
    DeviceProfile rlx = p;
    rlx.name = "rlx";
    PredictorTrainOptions o;
    o.threads = 1;
    o.minSamples = 3;
    return evaluateLeaveFamilyOut(runs, p, rlx, o);
}

} // namespace costscope::test
