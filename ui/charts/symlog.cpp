// SPDX-License-Identifier: MIT
#include "charts/symlog.h"
#include <algorithm>
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
    // ±c sits right next to 0 on a wide range: its labels would collide with 0's.
    const int first = span > 4 ? 1 : 0;
    for (int k = first; k <= 12; k += step)
        for (const double sign : {-1.0, 1.0})
            if (const double t = symlog(sign * m_c * std::pow(10.0, k), m_c); range.contains(t))
                ticks << t;
    if (range.contains(0))
        ticks << 0;
    std::sort(ticks.begin(), ticks.end());
    return ticks;
}

QString SymlogTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return durationLabel(std::round(symlogInverse(tick, m_c)));
}

QString durationLabel(double ns)
{
    const double a = std::abs(ns);
    if (ns == 0)
        return QStringLiteral("0");
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
