// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"

#include <ostream>

namespace costscope {

// The measured GEMM table of a calibrated profile, one "MxKxN  rate" line per point, for `calibrate`'s figures.
void printSgemmTable(std::ostream& out, const DeviceProfile& p, const char* what);

} // namespace costscope
