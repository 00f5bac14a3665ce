// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/cost_model.h"
#include "ir/graph.h"
#include <QAbstractTableModel>
#include <memory>

namespace costscope {

// One row per graph node (in graph order). SortRole gives numbers for the numeric columns.
class NodeTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Name, OpLabel, Shape, Scope, Bytes, Cost, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeIdRole = Qt::UserRole + 2; // the row's node id (qlonglong)

    explicit NodeTableModel(QObject* parent = nullptr);
    void setGraph(std::shared_ptr<const Graph> graph);
    void setCost(std::shared_ptr<const GraphCost> cost);
    // The first column of the node's row; invalid when the graph has no such node.
    QModelIndex indexOfNode(NodeId id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const GraphCost> m_cost;
};

} // namespace costscope
