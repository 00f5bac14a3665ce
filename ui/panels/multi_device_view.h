// SPDX-License-Identifier: MIT
#pragma once

#include "multi_device_run_report.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace costscope {

// A run on every device of a backend (the Run panel's "All CUDA devices"): a table with a row per device (its model,
// PCI bus id, isolated and concurrent medians, contention, the prediction under that device's own calibration and its
// error, the profile, and what failed, by name) above the spread between devices of one model and the pick among the
// devices, and a bar chart of the isolated, concurrent and predicted times per device.
class MultiDeviceView : public QWidget {
    Q_OBJECT
public:
    enum Column { Device, Model, PciBus, Isolated, Concurrent, Contention, Predicted, Error, Profile, Status };

    explicit MultiDeviceView(QWidget* parent = nullptr);
    // nullptr clears the view.
    void showReport(std::shared_ptr<const MultiDeviceRunReport> report);
    std::shared_ptr<const MultiDeviceRunReport> report() const { return m_report; }

    QTableWidget* table() const { return m_table; }
    QLabel* spreadLabel() const { return m_spread; }
    // Which GPU RLX's rule picks by the predictions under each device's own profile, and which ran fastest.
    QLabel* pickLabel() const { return m_pick; }
    QCustomPlot* chart() const { return m_chart; }

private:
    void fillTable();
    void showPick();
    void drawChart();

    QTableWidget* m_table;
    QLabel* m_spread;
    QLabel* m_pick;
    QCustomPlot* m_chart;
    std::shared_ptr<const MultiDeviceRunReport> m_report;
};

} // namespace costscope
