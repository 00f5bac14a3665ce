// SPDX-License-Identifier: MIT
#include "calibration/calibration_figures.h"

namespace costscope {

void printSgemmTable(std::ostream& out, const DeviceProfile& p, const char* what)
{
    out << what << " (GFLOP/s):\n";
    for (const SgemmPoint& s : p.sgemmTable)
        out << "  " << s.m << 'x' << s.k << 'x' << s.n << "  " << s.gflops << '\n';
}

} // namespace costscope
