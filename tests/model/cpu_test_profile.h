// SPDX-License-Identifier: MIT
#pragma once
// A small CPU profile without corrections or predictors, for the fits and the predictors' tests.
#include "analysis/device_profile.h"

namespace costscope::test {

inline DeviceProfile cpuTestProfile()
{
    DeviceProfile p;
    p.name = "calibrated-test";
    p.device = Device::Cpu;
    p.sgemmGflops = 50;
    p.memoryBw = 10;
    p.dispatchNs = 100;
    p.roundtripNs = 1000;
    p.unifiedMemory = true;
    return p;
}

} // namespace costscope::test
