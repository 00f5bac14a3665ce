// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/top_nodes.h"
#include "ir/graph.h"
#include <QAbstractTableModel>
#include <memory>

namespace costscope {

// The rows of topNodes: the costliest nodes with their predicted and measured time and share, in rank order.
// SortRole gives numbers for the numeric columns (nodes without a measurement sort below every measured one).
class TopNodesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Name, OpLabel, Predicted, PredictedShare, Measured, MeasuredShare, Cumulative, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeIdRole = Qt::UserRole + 2; // the row's node id (qlonglong)

    explicit TopNodesModel(QObject* parent = nullptr);
    // `graph` null clears the table.
    void setTop(std::shared_ptr<const Graph> graph, TopNodes top);
    const TopNodes& top() const { return m_top; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Graph> m_graph;
    TopNodes m_top;
};

} // namespace costscope
