// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "analysis/piecewise_linear.h"

#include <cstdint>

namespace costscope {

// Achievable sgemm rate (GFLOP/s) of a profile at a GEMM shape, for the Costscope model.
// With a table: piecewise-linear in log(m·k·n) between the table's points, clamped to the end points outside
// them. One axis (volume) is enough to capture the main effect, small shapes not filling the device; shapes of
// equal volume but odd aspect get the same rate until the table is dense enough to tell them apart.
// Matrix-vector points (m or n of 1: memory-bound, 8× below a cube of the same volume on the CPU) only price
// matrix-vector shapes: a 8×27×256 convolution GEMM priced between 16³ and 1×512×512 came out at a third of its
// measured rate.
// Without a table: RLX's rule (flat rate, or the small-shape rate under the threshold).
class GemmRate {
public:
    explicit GemmRate(const DeviceProfile& p);
    double at(std::int64_t m, std::int64_t k, std::int64_t n) const;

private:
    const DeviceProfile& m_profile;
    PiecewiseLinear m_rate;       // GFLOP/s by log volume, every point
    PiecewiseLinear m_matrixRate; // the points with m and n above 1
};

} // namespace costscope
