// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/calibration_fit.h"
#include "analysis/host_speed.h"

#include <memory>
#include <utility>
#include <vector>

namespace costscope {

// A graph measured on one device: the graph and bindings it ran with, the measured time per node (node id, ns)
// and the whole-graph median; `host` the host's speed during the run against the profile's calibration (all 1
// when the run did not probe it).
struct MeasuredRun {
    std::shared_ptr<const Graph> graph;
    Bindings bindings;
    std::vector<std::pair<NodeId, double>> nodes;
    double wholeNs = 0;
    HostSpeed host;
};

struct ProfileFit {
    // The input profile with the fitted corrections in place of its old ones, tagged Measured when any were fitted.
    DeviceProfile profile;
    FitReport report;
};

// Fitting corrections into a profile (costscope-cli fit, the GUI's "Fit corrections from runs"): the Costscope
// model under `profile` without its corrections, scaled to each run's host speed (hostAdjusted), predicts every
// run, and the per-class factors fitted to the measurements replace the profile's corrections: they describe the
// model's error, not the host's drift.
ProfileFit fitProfileCorrections(const DeviceProfile& profile, const std::vector<MeasuredRun>& runs,
                                 const FitOptions& options = {});

} // namespace costscope
