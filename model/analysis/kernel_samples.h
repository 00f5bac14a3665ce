// SPDX-License-Identifier: MIT
#pragma once
// Training samples for the kernel predictors from one measured run: each timed node's class, features, analytic
// time (the Costscope model under the profile, no corrections, no predictors) and measured time less the run's
// per-node instrumentation overhead (calibration_fit.h).
#include "analysis/device_profile.h"
#include "analysis/kernel_predictor.h"
#include "ir/graph.h"

#include <string>
#include <utility>
#include <vector>

namespace costscope {

// `measured` pairs node ids with the instrumented run's ns; `wholeMeasuredNs` is the plain run's median. Each run
// carries the same total weight (1), half shared equally among its nodes and half by analytic time, so that a
// transformer's many small nodes do not outvote a CNN's few large ones and the nodes that decide the graph's time
// count most, while a node measured anomalously slow does not weigh itself up.
std::vector<KernelSample> kernelSamplesFrom(const Graph& g, const DeviceProfile& analyticProfile,
                                            const std::vector<std::pair<NodeId, double>>& measured,
                                            double wholeMeasuredNs, const std::string& family, double launchNs = 0);

// The profile without learned predictors, graph composition and corrections: what the predictors are trained against.
DeviceProfile analyticOnly(DeviceProfile p);

} // namespace costscope
