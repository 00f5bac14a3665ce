// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "analysis/piecewise_linear.h"


namespace costscope {

// Bandwidth (bytes per ns) a kernel moving `bytes` reaches, for the Costscope model. With a measured table
// (DeviceProfile::memoryBwTable): piecewise-linear in log(bytes) between its points, clamped to the end points, so
// that tensors that fit a cache get its speed. Without: the profile's flat memory bandwidth.
class MemoryRate {
public:
    explicit MemoryRate(const DeviceProfile& p);
    double at(double bytes) const;

private:
    double m_flat;
    PiecewiseLinear m_rate; // GB/s by log(bytes)
};

} // namespace costscope
