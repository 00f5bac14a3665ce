// SPDX-License-Identifier: MIT
#pragma once
#include <QString>

class QCustomPlot;

namespace costscope {

// Writes the chart as PNG, SVG or PDF, chosen by the file's suffix; false with *error set on failure.
bool exportChart(QCustomPlot* plot, const QString& path, QString* error, int width = 1000, int height = 650);
// Writes the plotted data as CSV: a header "<x label>,<series>..." and one row per sweep value, the series'
// own values (not symlog-transformed or stacked). Empty cells where a series has no value.
bool exportChartCsv(QCustomPlot* plot, const QString& path, QString* error);

} // namespace costscope
