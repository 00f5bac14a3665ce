// SPDX-License-Identifier: MIT
#pragma once
#include <QObject>
#include <QPoint>

class QCustomPlot;
class QCPGraph;

namespace costscope {

// Hover tooltips with exact values, click-to-pick a sweep value, legend clicks that hide or show a series and
// a context menu that exports the chart. Lives as long as its plot.
class ChartInteraction : public QObject {
    Q_OBJECT
public:
    explicit ChartInteraction(QCustomPlot* plot);

    // The data point nearest to `pixel` within a few pixels: its graph and index, or nullptr.
    QCPGraph* pointAt(const QPoint& pixel, int* index) const;
    // What the tooltip says for point `index` of `graph`.
    static QString describe(const QCPGraph* graph, int index, const QString& xLabel);

signals:
    void valueClicked(qint64 value);

private:
    void exportTo(const QString& format);
    // Items tagged with the series they belong to (property "series": names) show only while all of those do.
    void showItemsOfVisibleSeries();
    QCustomPlot* m_plot;
};

} // namespace costscope
