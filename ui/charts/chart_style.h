// SPDX-License-Identifier: MIT
#pragma once
#include <qcustomplot.h>
#include <cstdint>
#include <vector>

namespace costscope {

// Shared look of the sweep charts: fonts, grid, legend, colours.
void setupChart(QCustomPlot* plot, const QString& title, const QString& xLabel, const QString& yLabel, bool logX,
                bool logY);
// Clears graphs, items and the title's old text; keeps axes and layout.
void resetChart(QCustomPlot* plot, const QString& title);
QColor seriesColor(int index);

// A graph named `name` holding (values, ys); NaN or non-finite ys leave gaps. `raw` (what tooltips and CSV
// show) defaults to ys.
QCPGraph* addSeries(QCustomPlot* plot, const QString& name, const std::vector<std::int64_t>& values,
                    const std::vector<double>& ys, const QColor& color, const std::vector<double>* raw = nullptr);
std::vector<double> rawValues(const QCPGraph* graph);

// Log-axis boundaries between neighbouring sweep values (geometric midpoints), for bands that tile the x axis.
std::pair<double, double> cellBounds(const std::vector<std::int64_t>& values, std::size_t i);
// A rectangle spanning x in plot coordinates and y as a fraction of the axis rect (0 top, 1 bottom).
QCPItemRect* addBand(QCustomPlot* plot, double x0, double x1, double yTop, double yBottom, const QColor& fill);
// A vertical marker with a label, both named `name` (tests find them by name).
void addMarker(QCustomPlot* plot, const QString& name, double x, const QString& text, int row, const QColor& color);

// A note in the chart's top left corner, named "note" (what a chart leaves out and why).
void addNote(QCustomPlot* plot, const QString& text);

// Turns marker labels towards the inside of the chart; call after the axes have their final ranges.
void placeMarkerLabels(QCustomPlot* plot);

// A log ticker labelled as durations (ns/µs/ms).
class DurationLogTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

} // namespace costscope
