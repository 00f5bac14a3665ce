// SPDX-License-Identifier: MIT
#pragma once
#include "run_comparison.h"
#include <QWidget>
#include <memory>

class QComboBox;
class QCustomPlot;

namespace costscope {

// Predicted against measured time per node of a run, log-log on equal ranges, one series per op class (named by
// opClassName) and the y = x line (graph "y = x"); the selector picks the Costscope or the RLX parity prediction.
// Nodes with a zero prediction or measurement have no place on log axes and are left out (the title counts them).
class RunScatter : public QWidget {
    Q_OBJECT
public:
    explicit RunScatter(QWidget* parent = nullptr);
    // nullptr clears the chart.
    void showComparison(std::shared_ptr<const RunComparison> run);
    QCustomPlot* plot() const { return m_plot; }
    QComboBox* modelSelector() const { return m_model; }

private:
    void redraw();

    QComboBox* m_model;
    QCustomPlot* m_plot;
    std::shared_ptr<const RunComparison> m_run;
};

} // namespace costscope
