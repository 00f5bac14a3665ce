// SPDX-License-Identifier: MIT
#pragma once
#include "run_comparison.h"

namespace costscope {

// One node timed in both of two runs.
struct NodeDelta {
    std::size_t nodeIndex = 0; // in the later run's graph
    NodeId id = 0;
    std::string label;
    double beforeNs = 0;
    double afterNs = 0;
};

// Two runs of one graph side by side: two devices, two bindings, before and after a calibration or an edit.
struct RunDelta {
    double beforeWholeNs = 0; // medians
    double afterWholeNs = 0;
    std::vector<NodeDelta> nodes; // the later run's execution order; only nodes both runs timed (matched by id)
};

RunDelta compareRuns(const RunComparison& before, const RunComparison& after);

} // namespace costscope
