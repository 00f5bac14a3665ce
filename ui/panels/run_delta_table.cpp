// SPDX-License-Identifier: MIT
#include "panels/run_delta_table.h"
#include "canvas/overlay_model.h"
#include "panels/value_items.h"
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace costscope {

namespace {
QString describe(const RunComparison& run)
{
    QStringList bindings;
    for (const auto& [symbol, value] : run.bindings)
        bindings << QStringLiteral("%1=%2").arg(QString::fromStdString(symbol)).arg(value);
    return QStringLiteral("%1:%2 %3").arg(QString::fromStdString(run.backend)).arg(run.device).arg(bindings.join(", "));
}

double changePercent(double before, double after)
{
    return before > 0 ? 100.0 * (after - before) / before : 0.0;
}
} // namespace

RunDeltaTable::RunDeltaTable(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel),
      m_table(
          makeTable(ColumnCount, {tr("Node"), tr("Name"), tr("Op"), tr("Previous run"), tr("Last run"), tr("Change")}))
{
    m_table->setObjectName(QStringLiteral("runDeltas"));
    m_table->setSortingEnabled(true);
    m_summary->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    showRuns(nullptr, nullptr);
}

void RunDeltaTable::showRuns(const RunComparison* before, const RunComparison* after)
{
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    if (!before || !after) {
        m_summary->setText(tr("Run the graph twice (another device, other bindings, after a calibration) to compare "
                              "the two runs node by node."));
        return;
    }
    const RunDelta d = compareRuns(*before, *after);
    m_summary->setText(
        tr("Previous run %1: %2; last run %3: %4 (%5 %)")
            .arg(describe(*before), formatNs(d.beforeWholeNs), describe(*after), formatNs(d.afterWholeNs))
            .arg(changePercent(d.beforeWholeNs, d.afterWholeNs), 0, 'f', 1));
    m_table->setRowCount(static_cast<int>(d.nodes.size()));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const NodeDelta& n = d.nodes[static_cast<std::size_t>(row)];
        m_table->setItem(row, Id, valueItem(QString::number(n.id), static_cast<double>(n.id)));
        const Node* node = after->graph ? after->graph->find(n.id) : nullptr;
        m_table->setItem(row, Name,
                         new QTableWidgetItem(node ? QString::fromStdString(node->displayName()) : QString()));
        m_table->setItem(row, OpLabel, new QTableWidgetItem(QString::fromStdString(n.label)));
        m_table->setItem(row, Before, nsItem(n.beforeNs));
        m_table->setItem(row, After, nsItem(n.afterNs));
        m_table->setItem(row, Change, percentItem(changePercent(n.beforeNs, n.afterNs)));
    }
    m_table->setSortingEnabled(true);
}

} // namespace costscope
