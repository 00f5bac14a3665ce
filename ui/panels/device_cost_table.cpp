// SPDX-License-Identifier: MIT
#include "panels/device_cost_table.h"
#include "canvas/overlay_model.h"
#include <QHeaderView>

namespace costscope {
namespace {
constexpr int kNsRole = Qt::UserRole + 1;
} // namespace

DeviceCostTable::DeviceCostTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels(
        {tr("Device"), tr("Total"), tr("Compute"), tr("Memory"), tr("Dispatch"), tr("Sync"), tr("Calibration")});
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setAlternatingRowColors(true);
    setToolTip(tr("The selected node's cost on every device (same model and bindings)"));
}

void DeviceCostTable::showNode(const Graph* graph, const DeviceCosts* costs, std::optional<NodeId> id)
{
    setRowCount(0);
    const auto position = graph && id ? graph->indexOf(*id) : std::nullopt;
    if (!costs || !position)
        return;
    const std::size_t idx = *position;
    const auto pick = costs->pick(m_version);
    for (std::size_t d = 0; d < costs->devices.size(); ++d) {
        const GraphCost* cost = costs->costs[d].get();
        if (!cost || idx >= cost->nodes.size())
            continue;
        const NodeCost& c = cost->nodes[idx];
        const int r = rowCount();
        insertRow(r);
        auto* name = new QTableWidgetItem(QString::fromStdString(costs->devices[d]));
        setItem(r, Device, name);
        const double values[] = {c.totalNs, c.computeNs, c.memoryNs, c.dispatchNs, c.syncNs};
        for (int col = Total; col < Calibration; ++col) {
            const double v = values[col - Total];
            auto* item = new QTableWidgetItem(c.skipped ? tr("skipped") : formatNs(v));
            item->setData(kNsRole, v);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(r, col, item);
        }
        // A transferred profile (another device's calibration scaled by datasheet ratios) says so where its tag is.
        auto* tag = new QTableWidgetItem(QString::fromUtf8(calibrationName(cost->calibration).data())
                                         + (cost->transferredFrom.empty() ? QString() : tr(", transferred")));
        if (!cost->transferredFrom.empty())
            tag->setToolTip(tr("Transferred from %1").arg(QString::fromStdString(cost->transferredFrom)));
        setItem(r, Calibration, tag);
        if (const std::string why = costs->leftOut(d, m_version); !why.empty())
            for (int col = 0; col < ColumnCount; ++col) {
                item(r, col)->setForeground(palette().brush(QPalette::Disabled, QPalette::Text));
                item(r, col)->setToolTip(QString::fromStdString(why));
            }
        if (pick && *pick == d)
            for (int col = 0; col < ColumnCount; ++col) {
                QFont f = item(r, col)->font();
                f.setBold(true);
                item(r, col)->setFont(f);
            }
    }
}

std::optional<double> DeviceCostTable::valueNs(const QString& device, Column column) const
{
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, Device)->text() == device && column != Device && column != Calibration)
            return item(r, column)->data(kNsRole).toDouble();
    return std::nullopt;
}

} // namespace costscope
