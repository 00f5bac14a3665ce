// SPDX-License-Identifier: MIT
#include "charts/symlog.h"
#include <cmath>

namespace costscope {

double symlog(double y, double c)
{
    return std::copysign(std::log10(1.0 + std::abs(y) / c), y);
}

double symlogInverse(double s, double c)
{
    return std::copysign(c * (std::pow(10.0, std::abs(s)) - 1.0), s);
}

QVector<double> SymlogTicker::createTickVector(double, const QCPRange& range)
{
    QVector<double> ticks;
    // 0, ±c·10^k: evenly spaced once |y| ≫ c. Every other decade when the range holds many.
    const double span = std::max(std::abs(range.lower), std::abs(range.upper));
    const int step = span > 6 ? 2 : 1;
    for (int k = 12; k >= 0; k -= step) {
        const double s = symlog(-m_c * std::pow(10.0, k), m_c);
        if (range.contains(s))
            ticks << s;
    }
    if (range.contains(0))
        ticks << 0;
    for (int k = 0; k <= 12; k += step) {
        const double s = symlog(m_c * std::pow(10.0, k), m_c);
        if (range.contains(s))
            ticks << s;
    }
    return ticks;
}

QString SymlogTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return durationLabel(std::round(symlogInverse(tick, m_c)));
}

QString durationLabel(double ns)
{
    const double a = std::abs(ns);
    const QString sign = ns < 0 ? QStringLiteral("−") : QString();
    if (a >= 1e9)
        return sign + QStringLiteral("%1 s").arg(a / 1e9, 0, 'g', 3);
    if (a >= 1e6)
        return sign + QStringLiteral("%1 ms").arg(a / 1e6, 0, 'g', 3);
    if (a >= 1e3)
        return sign + QStringLiteral("%1 µs").arg(a / 1e3, 0, 'g', 3);
    return sign + QStringLiteral("%1 ns").arg(a, 0, 'g', 3);
}

} // namespace costscope
