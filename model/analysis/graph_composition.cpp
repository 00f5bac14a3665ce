// SPDX-License-Identifier: MIT
#include "analysis/graph_composition.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace costscope {

double GraphComposition::wholeNs(double kernelNs, double kernels) const
{
    return std::max(kernelScale * kernelNs + perKernelNs * kernels + fixedNs, 0.5 * kernelNs);
}

GraphComposition fitGraphComposition(const std::vector<CompositionSample>& samples)
{
    // Rows x = (S/M, n/M, 1/M), target 1: the relative error of a·S + b·n + c against M. Three unknowns: the
    // normal equations solved by Gaussian elimination with partial pivoting.
    std::array<std::array<double, 4>, 3> a{};
    int used = 0;
    for (const CompositionSample& s : samples) {
        if (s.measuredNs <= 0 || s.kernelNs <= 0)
            continue;
        const std::array<double, 3> x = {s.kernelNs / s.measuredNs, s.kernels / s.measuredNs, 1.0 / s.measuredNs};
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j)
                a[i][j] += x[i] * x[j];
            a[i][3] += x[i];
        }
        ++used;
    }
    if (used < 6)
        return {};
    for (int c = 0; c < 3; ++c) {
        int pivot = c;
        for (int r = c + 1; r < 3; ++r)
            if (std::fabs(a[r][c]) > std::fabs(a[pivot][c]))
                pivot = r;
        std::swap(a[c], a[pivot]);
        if (std::fabs(a[c][c]) < 1e-300)
            return {};
        for (int r = 0; r < 3; ++r)
            if (r != c) {
                const double f = a[r][c] / a[c][c];
                for (int k = c; k < 4; ++k)
                    a[r][k] -= f * a[c][k];
            }
    }
    GraphComposition g{a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]};
    if (!std::isfinite(g.kernelScale) || !std::isfinite(g.perKernelNs) || !std::isfinite(g.fixedNs)
        || g.kernelScale < 0.3 || g.kernelScale > 3 || g.fixedNs < 0)
        return {};
    return g;
}

} // namespace costscope
