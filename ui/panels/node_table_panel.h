// SPDX-License-Identifier: MIT
#pragma once
#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace costscope {

class NodeTableModel;

// The node table with a filter box; selection is reported and set by graph position.
class NodeTablePanel : public QWidget {
    Q_OBJECT
public:
    explicit NodeTablePanel(NodeTableModel* model, QWidget* parent = nullptr);
    void selectNode(int nodeIndex); // -1 clears; emits nothing
    int selectedNode() const;
    QTableView* view() const { return m_view; }
    QLineEdit* filter() const { return m_filter; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

signals:
    void nodeSelected(int nodeIndex);

private:
    NodeTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_filter;
    bool m_settingSelection = false;
};

} // namespace costscope
