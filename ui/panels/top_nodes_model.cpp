// SPDX-License-Identifier: MIT
#include "panels/top_nodes_model.h"
#include "canvas/overlay_model.h"

namespace costscope {

namespace {
QString percent(double share)
{
    return QStringLiteral("%1 %").arg(100 * share, 0, 'f', 1);
}
} // namespace

TopNodesModel::TopNodesModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void TopNodesModel::setTop(std::shared_ptr<const Graph> graph, TopNodes top)
{
    beginResetModel();
    m_graph = std::move(graph);
    m_top = m_graph ? std::move(top) : TopNodes{};
    endResetModel();
}

int TopNodesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_top.nodes.size());
}

int TopNodesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopNodesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TopNode& t = m_top.nodes[static_cast<std::size_t>(index.row())];
    if (role == NodeIdRole)
        return QVariant::fromValue<qlonglong>(m_graph->nodes[t.index].id);
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    const bool sort = role == SortRole;
    const Node& n = m_graph->nodes[t.index];
    switch (index.column()) {
    case Rank:
        return index.row() + 1;
    case Name:
        return n.displayName().empty() ? QStringLiteral("%%1").arg(n.id) : QString::fromStdString(n.displayName());
    case OpLabel:
        return QString::fromStdString(n.op.label());
    case Predicted:
        return sort ? QVariant(t.predictedNs) : QVariant(formatNs(t.predictedNs));
    case PredictedShare:
        return sort ? QVariant(t.predictedShare) : QVariant(percent(t.predictedShare));
    case Measured:
        if (!t.measuredNs)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("—"));
        return sort ? QVariant(*t.measuredNs) : QVariant(formatNs(*t.measuredNs));
    case MeasuredShare:
        if (!t.measuredShare)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("—"));
        return sort ? QVariant(*t.measuredShare) : QVariant(percent(*t.measuredShare));
    case Cumulative:
        return sort ? QVariant(t.cumulativeShare) : QVariant(percent(t.cumulativeShare));
    default:
        return {};
    }
}

QVariant TopNodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const titles[ColumnCount] = {QT_TR_NOOP("#"),
                                                    QT_TR_NOOP("Name"),
                                                    QT_TR_NOOP("Op"),
                                                    QT_TR_NOOP("Predicted"),
                                                    QT_TR_NOOP("Share"),
                                                    QT_TR_NOOP("Measured"),
                                                    QT_TR_NOOP("Measured share"),
                                                    QT_TR_NOOP("Cumulative")};
    return tr(titles[section]);
}

} // namespace costscope
