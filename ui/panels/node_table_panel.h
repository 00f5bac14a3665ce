// SPDX-License-Identifier: MIT
#pragma once
#include "ir/diagnostic.h"
#include <QWidget>
#include <optional>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace costscope {

class NodeTableModel;

// The node table with a filter box; selection is reported and set by node id (rows are a lookup inside it).
class NodeTablePanel : public QWidget {
    Q_OBJECT
public:
    explicit NodeTablePanel(NodeTableModel* model, QWidget* parent = nullptr);
    void selectNode(std::optional<NodeId> id); // nullopt (or an id not in the graph) clears; emits nothing
    std::optional<NodeId> selectedNode() const;
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

signals:
    void nodeSelected(costscope::NodeId id);

private:
    NodeTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    bool m_settingSelection = false;
};

} // namespace costscope
