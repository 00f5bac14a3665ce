// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"

namespace costscope {

// How fast the host runs now against when it was calibrated, per kind of work: a probe's time at calibration over
// its time now (above 1: faster now).
struct HostSpeed {
    double gemm = 1, kernel = 1, memory = 1, dispatch = 1;
};

// 1 for a figure missing on either side.
HostSpeed hostSpeed(const HostProbe& atCalibration, const HostProbe& now);

// The profile with its rates scaled to the host's speed now: the sgemm table, peak and im2col-free GEMM figures by
// `gemm`; kernel rates by `kernel`; bandwidths (copy, table, view, im2col, readback) by `memory`; dispatch,
// round trip and per-call costs by `dispatch`. Corrections are kept: they describe the model's error, not the host.
// The description says it was adjusted.
DeviceProfile hostAdjusted(const DeviceProfile& p, const HostSpeed& s);

} // namespace costscope
