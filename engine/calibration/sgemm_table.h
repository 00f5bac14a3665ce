// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"

#include <algorithm>
#include <vector>

namespace costscope {

// Stores a measured GEMM table in a calibrated profile, with its best rate as the flat and the peak rate.
inline void setSgemmTable(DeviceProfile& p, std::vector<SgemmPoint> table)
{
    double best = 0;
    for (const SgemmPoint& s : table)
        best = std::max(best, s.gflops);
    p.sgemmTable = std::move(table);
    p.sgemmGflops = best;
    p.peakGflops = best;
}

} // namespace costscope
