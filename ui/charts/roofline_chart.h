// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/roofline.h"
#include <QWidget>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPAbstractPlottable;
class QMainWindow;

namespace costscope {

class OpenGraphFeed;

// Every node as a point, FLOP per byte against GFLOP/s (log-log), under the device's compute and bandwidth roofs:
// the predicted rate (graph "predicted") and, after a run, the measured one (graph "measured"); clicking a point
// reports its node.
class RooflineChart : public QWidget {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    // `device` names the roofs in the title; an empty roofline clears the chart.
    void showRoofline(Roofline roofline, const QString& device);
    const Roofline& roofline() const { return m_roofline; }
    QCustomPlot* plot() const { return m_plot; }
    // The node of the point at `dataIndex` of a series this chart drew; nullopt for anything else.
    std::optional<NodeId> nodeAt(const QCPAbstractPlottable* series, int dataIndex) const;

signals:
    void nodeSelected(costscope::NodeId id);

private:
    QCustomPlot* m_plot;
    Roofline m_roofline;
    // Per point series, the node ids in the order of its (intensity-sorted) data.
    std::vector<std::pair<const QCPAbstractPlottable*, std::vector<NodeId>>> m_nodesOf;
};

// Docks the chart beside the Top nodes of `window` and binds it to the open graph: the Costscope model's costs on
// the settings' device and bindings, the runs' measurements, and a clicked point selects its node on the canvas.
RooflineChart* installRooflineDock(QMainWindow* window, OpenGraphFeed* feed);

} // namespace costscope
