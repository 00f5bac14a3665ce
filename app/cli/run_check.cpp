// SPDX-License-Identifier: MIT
#include "cli/run_check.h"

#include <algorithm>
#include <cmath>

namespace costscope::cli {

OutputCheck checkOutput(const HostTensor& got, const HostTensor& want, double rtol, double atol)
{
    OutputCheck c;
    c.rtol = rtol;
    c.atol = atol;
    if (got.dims() != want.dims()) {
        c.problem = "output is " + describe(got) + ", reference is " + describe(want);
        return c;
    }
    c.pass = true;
    for (std::uint64_t i = 0; i < want.elements(); ++i) {
        const double g = got.valueAsDouble(i), w = want.valueAsDouble(i);
        if ((std::isnan(g) && std::isnan(w)) || g == w) // equal infinities have a NaN difference
            continue;
        const double err = std::abs(g - w);
        if (!(err <= atol + rtol * std::abs(w)))
            c.pass = false;
        if (std::isnan(err))
            continue;
        c.maxAbsError = std::max(c.maxAbsError, err);
        c.maxRelError = std::max(c.maxRelError, err / std::max(std::abs(w), std::max(atol, 1e-30)));
    }
    return c;
}

} // namespace costscope::cli
