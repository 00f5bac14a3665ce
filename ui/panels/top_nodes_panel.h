// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/top_nodes.h"
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QMainWindow;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QTableWidget;

namespace costscope {

class OpenGraphFeed;
class TopNodesModel;

// "Where the time goes": the N costliest nodes of the shown costs, ranked by prediction or, after a run, by
// measurement, each with its share of the total and the cumulative share. Sortable by any column; choosing a row
// reports the node (graph position). A second tab sums the predicted time by op class (opClassShares).
class TopNodesPanel : public QWidget {
    Q_OBJECT
public:
    explicit TopNodesPanel(QWidget* parent = nullptr);
    // The costs shown (null clears, with any measurement).
    void setCost(std::shared_ptr<const Graph> graph, std::shared_ptr<const GraphCost> cost);
    // Measured ns per graph position of the graph shown (empty: no run).
    void setMeasured(std::vector<std::optional<double>> measuredNs);

    TopNodesModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QSpinBox* countSpin() const { return m_count; }
    QComboBox* rankingSelector() const { return m_ranking; }
    enum ClassColumn { ClassName, ClassNodes, ClassPredicted, ClassShare, ClassCumulative, ClassColumnCount };
    QTableWidget* classTable() const { return m_classes; }

signals:
    void nodeSelected(costscope::NodeId id);

private:
    void refresh();
    void showOpClasses();

    TopNodesModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QSpinBox* m_count;
    QComboBox* m_ranking;
    QTableWidget* m_classes;
    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const GraphCost> m_cost;
    std::vector<std::optional<double>> m_measured;
};

// Docks the panel beside the Nodes table of `window` and binds it to the open graph: its costs, its runs'
// measurements, and a chosen row selects the node on the canvas.
TopNodesPanel* installTopNodesDock(QMainWindow* window, OpenGraphFeed* feed);

} // namespace costscope
