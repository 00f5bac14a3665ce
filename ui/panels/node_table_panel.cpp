// SPDX-License-Identifier: MIT
#include "panels/node_table_panel.h"
#include "panels/node_table_model.h"
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace costscope {

NodeTablePanel::NodeTablePanel(NodeTableModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView(this)),
      m_filter(new QLineEdit(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(NodeTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter->setPlaceholderText(tr("Filter nodes (name, op, shape, group)"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(NodeTableModel::Id, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(20);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setSectionResizeMode(NodeTableModel::Name, QHeaderView::Stretch);
    m_view->setWordWrap(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!m_settingSelection && current.isValid())
                    emit nodeSelected(current.data(NodeTableModel::NodeIdRole).toLongLong());
            });
}

void NodeTablePanel::selectNode(std::optional<NodeId> id)
{
    m_settingSelection = true;
    const QModelIndex proxyIndex = id ? m_proxy->mapFromSource(m_model->indexOfNode(*id)) : QModelIndex();
    if (proxyIndex.isValid()) {
        m_view->selectionModel()->setCurrentIndex(proxyIndex,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(proxyIndex);
    } else {
        m_view->clearSelection();
    }
    m_settingSelection = false;
}

std::optional<NodeId> NodeTablePanel::selectedNode() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return std::nullopt;
    return rows.front().data(NodeTableModel::NodeIdRole).toLongLong();
}

} // namespace costscope
