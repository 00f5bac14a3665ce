// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "backend.h"

#include <atomic>

namespace costscope {

// Times the four reference micro-graphs of HostProbe on a backend's device (about 50 ms on the CPU): taken with a
// calibration, stored in its profile, and again before a run, so that the run's predictions can follow the host's
// speed now (hostAdjusted).
Result<HostProbe> probeHost(Backend& backend, DeviceIndex device = 0, const std::atomic<bool>* cancel = nullptr);

// The element-wise geometric mean of two probes (one before and one after a run or a calibration).
HostProbe meanProbe(const HostProbe& a, const HostProbe& b);

} // namespace costscope
