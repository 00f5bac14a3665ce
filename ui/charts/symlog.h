// SPDX-License-Identifier: MIT
#pragma once
#include <qcustomplot.h>

namespace costscope {

// QCustomPlot has log axes but no symmetric-log one, and gate scores run from −millions of ns to +thousands:
// a log axis cannot show the sign, a linear one flattens everything near the threshold. So charts plot
// symlog(y) = sign(y)·log10(1 + |y|/c) on a linear axis and label the ticks with the values they stand for.
inline constexpr double kSymlogScaleNs = 1000.0; // c: linear within ±1 µs
double symlog(double y, double c = kSymlogScaleNs);
double symlogInverse(double s, double c = kSymlogScaleNs);

// Ticks at 0 and ±c·10^k, labelled in ns/µs/ms/s.
class SymlogTicker : public QCPAxisTicker {
public:
    explicit SymlogTicker(double c = kSymlogScaleNs) : m_c(c) {}

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    double m_c;
};

// "1.2 ms", "−350 ns": a signed duration with 3 significant digits, for axis ticks and tooltips.
QString durationLabel(double ns);

} // namespace costscope
