// SPDX-License-Identifier: MIT
#pragma once
// The pick among device instances (issue 24): where RLX's rule chooses a device kind, a host with several GPUs needs
// the choice between cuda:0 and cuda:1, two different cards or identical ones calibrated apart. Each instance is a
// candidate with its own estimate (under its own profile) and tag; the rule is pick_rule.h's, unchanged.
#include "analysis/pick_rule.h"

#include <optional>
#include <string>
#include <vector>

namespace costscope {

struct InstanceEstimate {
    std::string id;      // "cuda:1"
    std::string label;   // "NVIDIA H100 80GB HBM3, PCI 0000:3b:00.0"
    std::string profile; // the profile the estimate is under
    double ns = 0;
    Calibration calibration = Calibration::ArchDefault;
};

struct InstancePick {
    std::optional<std::size_t> pick; // nullopt when there are no candidates
    std::vector<bool> ranked;        // per candidate, as pickByRule ranks them
    // Why: "lowest predicted time, 12.5 us under calibrated-cuda-... (Measured); next cuda:0 at 15.0 us (+20 %)".
    std::string reason;
};

// pickByRule over the instances' estimates and tags (first wins ties), with the reason spelled out.
InstancePick pickAmongInstances(const std::vector<InstanceEstimate>& candidates, RlxVersion version);

} // namespace costscope
