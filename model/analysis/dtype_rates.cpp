// SPDX-License-Identifier: MIT
#include "analysis/dtype_rates.h"

#include "analysis/device_profile.h"

#include <algorithm>
#include <cmath>

namespace costscope {

namespace {

std::size_t slot(Precision p)
{
    return static_cast<std::size_t>(p);
}

double logVolume(std::int64_t m, std::int64_t k, std::int64_t n)
{
    auto pos = [](std::int64_t v) { return static_cast<double>(std::max<std::int64_t>(v, 1)); };
    return std::log(pos(m) * pos(k) * pos(n));
}

double peakOf(const DTypeRates& r, Precision p, double PrecisionPeak::*which)
{
    auto it = r.peaks.find(p);
    return it == r.peaks.end() ? 0.0 : it->second.*which;
}

} // namespace

PrecisionRates::PrecisionRates(const DeviceProfile& p)
{
    const DTypeRates& r = p.dtypeRates;
    // The fp32 roofs the ratios are taken against: the table's fp32 entries, else the profile's fp32 peak.
    const double fallback = p.peakGflops > 0 ? p.peakGflops : p.sgemmGflops;
    const double fp32Matrix = peakOf(r, Precision::Fp32, &PrecisionPeak::matrixGflops);
    const double fp32Vector = peakOf(r, Precision::Fp32, &PrecisionPeak::vectorGflops);
    const double matrixRef = fp32Matrix > 0 ? fp32Matrix : fallback;
    const double vectorRef = fp32Vector > 0 ? fp32Vector : fallback;
    for (Precision prec : kAllPrecisions) {
        const double matrix = peakOf(r, prec, &PrecisionPeak::matrixGflops);
        const double vector = peakOf(r, prec, &PrecisionPeak::vectorGflops);
        m_gemmScale[slot(prec)] = matrix > 0 && matrixRef > 0 ? matrix / matrixRef : 0.0;
        m_vectorScale[slot(prec)] = vector > 0 && vectorRef > 0 ? vector / vectorRef : 1.0;
    }
    for (const auto& [prec, points] : r.gemmTables) {
        Table& t = m_tables[slot(prec)];
        for (const PrecisionGemmPoint& s : points)
            if (s.gflops > 0) {
                t.all.add(logVolume(s.m, s.k, s.n), s.gflops);
                if (std::min(s.m, s.n) > 1)
                    t.matrix.add(logVolume(s.m, s.k, s.n), s.gflops);
            }
        t.all.sort();
        t.matrix.sort();
    }
}

double PrecisionRates::gemm(Precision precision, double fp32Gflops, std::int64_t m, std::int64_t k,
                            std::int64_t n) const
{
    if (precision == Precision::Fp32)
        return fp32Gflops;
    const Table& t = m_tables[slot(precision)];
    if (!t.all.empty()) {
        const bool matrix = std::min(m, n) > 1 && !t.matrix.empty();
        return (matrix ? t.matrix : t.all).at(logVolume(m, k, n));
    }
    const double scale = m_gemmScale[slot(precision)];
    return scale > 0 ? fp32Gflops * scale : fp32Gflops;
}

double PrecisionRates::vectorScale(Precision precision) const
{
    return m_vectorScale[slot(precision)];
}

} // namespace costscope
