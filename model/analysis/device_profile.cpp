// SPDX-License-Identifier: MIT
#include "analysis/device_profile.h"

namespace costscope {

double DeviceProfile::rlxSgemmGflops(std::int64_t m, std::int64_t k, std::int64_t n) const
{
    if (smallSgemmGflops > 0 && smallSgemmThreshold > 0) {
        // m·k·n in floating point: shapes large enough to overflow 64 bits are not "small".
        const double volume = static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n);
        if (volume < static_cast<double>(smallSgemmThreshold))
            return smallSgemmGflops;
    }
    return sgemmGflops;
}

} // namespace costscope
