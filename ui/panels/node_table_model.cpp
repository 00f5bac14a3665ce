// SPDX-License-Identifier: MIT
#include "panels/node_table_model.h"
#include "layout/group_tree.h"
#include "canvas/overlay_model.h"

namespace costscope {

NodeTableModel::NodeTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void NodeTableModel::setGraph(std::shared_ptr<const Graph> graph)
{
    beginResetModel();
    m_graph = std::move(graph);
    m_cost.reset();
    endResetModel();
}

void NodeTableModel::setCost(std::shared_ptr<const GraphCost> cost)
{
    m_cost = std::move(cost);
    if (rowCount() > 0)
        emit dataChanged(index(0, Cost), index(rowCount() - 1, Cost));
}

QModelIndex NodeTableModel::indexOfNode(NodeId id) const
{
    const auto row = m_graph ? m_graph->indexOf(id) : std::nullopt;
    return row ? index(static_cast<int>(*row), 0) : QModelIndex();
}

int NodeTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_graph ? 0 : static_cast<int>(m_graph->nodes.size());
}

int NodeTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant NodeTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_graph)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const Node& n = m_graph->nodes[row];
    if (role == NodeIdRole)
        return QVariant::fromValue<qlonglong>(n.id);
    const auto bytes = n.shape.bytes();
    const NodeCost* cost = m_cost && row < m_cost->nodes.size() && !m_cost->nodes[row].skipped ? &m_cost->nodes[row] : nullptr;
    if (role == SortRole) {
        switch (index.column()) {
        case Id: return QVariant::fromValue<qlonglong>(n.id);
        case Bytes: return bytes ? QVariant::fromValue<qulonglong>(*bytes) : QVariant(0ULL);
        case Cost: return cost ? cost->totalNs : -1.0;
        default: role = Qt::DisplayRole;
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Id || index.column() == Bytes || index.column() == Cost))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Id: return QVariant::fromValue<qlonglong>(n.id);
    case Name: return QString::fromStdString(n.displayName());
    case OpLabel: return QString::fromStdString(n.op.label());
    case Shape: return QString::fromStdString(n.shape.toString());
    case Scope: return QString::fromStdString(effectiveScope(*m_graph, row));
    case Bytes: return bytes ? formatBytes(static_cast<double>(*bytes)) : QStringLiteral("?");
    case Cost: return cost ? formatNs(cost->totalNs) : QString();
    default: return {};
    }
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id: return tr("Id");
    case Name: return tr("Name");
    case OpLabel: return tr("Op");
    case Shape: return tr("Output shape");
    case Scope: return tr("Group");
    case Bytes: return tr("Output bytes");
    case Cost: return tr("Cost");
    default: return {};
    }
}

} // namespace costscope
