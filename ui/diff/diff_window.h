// SPDX-License-Identifier: MIT
#pragma once
#include "interop/graph_diff.h"
#include "jobs/cost_job.h"
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace costscope {

class CanvasView;
class GraphScene;

// Two graphs side by side (say, before and after a fusion pass): nodes matched by name and structure, removed
// nodes outlined red on the left, added ones green on the right, changed ones orange on both; per-device totals and
// a table of per-node cost deltas (largest first; unchanged nodes on request) whose rows select the pair on both
// canvases.
class DiffWindow : public QWidget {
    Q_OBJECT
public:
    struct Side {
        std::shared_ptr<const Graph> graph;
        QString name;
    };
    DiffWindow(Side a, Side b, CostProvider provider, CostRequest request, QStringList devices,
               QWidget* parent = nullptr);

    const GraphDiff& diff() const { return m_diff; }
    // Per-device cost differences once computed (empty before costsReady).
    const std::vector<DeviceCostDiff>& costs() const { return m_costs; }
    GraphScene* sceneA() const { return m_sceneA; }
    GraphScene* sceneB() const { return m_sceneB; }
    QTableWidget* table() const { return m_table; }
    QComboBox* deviceSelector() const { return m_device; }
    QString summaryText() const; // what matched, changed, went and came
    QString totalsText() const;  // the chosen device's total before → after, once costed
    QCheckBox* showUnchanged() const { return m_showUnchanged; }

signals:
    void costsReady();

private:
    void markNodes();
    void fillTable();
    void selectRow(int row);

    Side m_a, m_b;
    GraphDiff m_diff;
    std::vector<DeviceCostDiff> m_costs;
    GraphScene* m_sceneA;
    GraphScene* m_sceneB;
    CanvasView* m_viewA;
    CanvasView* m_viewB;
    QLabel* m_summary;
    QComboBox* m_device;
    QTableWidget* m_table;
    QLabel* m_totals;
    QCheckBox* m_showUnchanged;
};

} // namespace costscope
