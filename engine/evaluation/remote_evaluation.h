// SPDX-License-Identifier: MIT
#pragma once
// The Calibration tab's evaluation on a remote host's device: `costscope-cli evaluate --json` there (the use case
// `costscope-cli evaluate --remote` calls, engine/remote), held to the profile kept here for that device, which
// travels into the host's cache by its content; the report comes back as the local evaluation's.
#include "analysis/device_profile.h"
#include "backend.h"
#include "remote/remote_cli.h"
#include "train/family_holdout.h"

#include <set>
#include <string>
#include <vector>

namespace costscope {

struct RemoteEvaluationRequest {
    RemoteCliOptions remote; // with the caller's cancel flag and progress lines (the remote's stderr)
    std::string backend = "cpu";
    DeviceIndex device = 0;
    std::set<std::string> families;    // empty: every zoo family
    std::vector<std::int64_t> batches; // empty: the remote's default
    double perGraphS = 0;              // 0: the remote's default
    DeviceProfile profile;             // the device's calibrated profile, as kept here
};

struct RemoteEvaluation {
    EvaluationReport report;
    std::string deviceName; // as the host names its device
};

Result<RemoteEvaluation> evaluateOnRemoteDevice(const RemoteEvaluationRequest& request);

} // namespace costscope
