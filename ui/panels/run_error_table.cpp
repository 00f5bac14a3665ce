// SPDX-License-Identifier: MIT
#include "panels/run_error_table.h"
#include "analysis/calibration_fit.h"
#include "canvas/overlay_model.h"
#include "panels/value_items.h"
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace costscope {

RunErrorTable::RunErrorTable(QWidget* parent)
    : QWidget(parent),
      m_whole(makeTable(WholeColumnCount, {tr("Model"), tr("Profile"), tr("Predicted"), tr("Measured"),
                                           tr("Whole-graph error"), tr("Per-node MAPE"), tr("Nodes within ±25 %")})),
      m_nodes(makeTable(NodeColumnCount, {tr("Node"), tr("Name"), tr("Op"), tr("Measured"), tr("RLX"),
                                          tr("RLX error"), tr("Costscope"), tr("Costscope error")}))
{
    m_whole->setObjectName(QStringLiteral("wholeGraphErrors"));
    m_nodes->setObjectName(QStringLiteral("nodeErrors"));
    m_whole->setSelectionMode(QAbstractItemView::NoSelection);
    m_whole->setMaximumHeight(m_whole->horizontalHeader()->sizeHint().height() * 5);
    m_nodes->setSortingEnabled(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_whole);
    layout->addWidget(m_nodes, 1);
}

void RunErrorTable::showComparison(const RunComparison* run)
{
    m_whole->setRowCount(0);
    m_nodes->setSortingEnabled(false);
    m_nodes->setRowCount(0);
    if (!run)
        return;
    const double measured = static_cast<double>(run->whole.medianNs);
    std::vector<std::pair<double, double>> rlxPairs, costscopePairs, hostPairs;
    for (const NodeComparison& n : run->nodes) {
        rlxPairs.emplace_back(n.rlxNs, n.measuredNs);
        costscopePairs.emplace_back(n.costscopeNs, n.measuredNs);
        hostPairs.emplace_back(n.costscopeHostNs, n.measuredNs);
    }
    auto wholeRow = [&](WholeRow r, const QString& model, const std::string& profile, double predicted,
                        const ErrorStats& nodes) {
        m_whole->setItem(r, Model, new QTableWidgetItem(model));
        m_whole->setItem(r, Profile, new QTableWidgetItem(QString::fromStdString(profile)));
        m_whole->setItem(r, Predicted, nsItem(predicted));
        m_whole->setItem(r, WholeMeasured, nsItem(measured));
        m_whole->setItem(r, WholeError, percentItem(errorPercent(predicted, measured)));
        m_whole->setItem(r, NodeMape, valueItem(QStringLiteral("%1 %").arg(nodes.mape, 0, 'f', 1), nodes.mape));
        const double within25 = 100 * nodes.within25;
        m_whole->setItem(r, NodesWithin25, valueItem(QStringLiteral("%1 %").arg(within25, 0, 'f', 0), within25));
    };
    m_whole->setRowCount(run->hostSpeed ? 3 : 2);
    wholeRow(RlxRow, tr("RLX parity"), run->rlxProfile, run->rlxTotalNs, errorStats(rlxPairs));
    wholeRow(CostscopeRow, tr("Costscope"), run->costscopeProfile, run->costscopeTotalNs, errorStats(costscopePairs));
    if (run->hostSpeed)
        wholeRow(CostscopeHostRow, tr("Costscope, host-adjusted"), run->costscopeProfile, run->costscopeHostTotalNs,
                 errorStats(hostPairs));
    m_nodes->setRowCount(static_cast<int>(run->nodes.size()));
    for (int r = 0; r < m_nodes->rowCount(); ++r) {
        const NodeComparison& n = run->nodes[static_cast<std::size_t>(r)];
        m_nodes->setItem(r, Id, valueItem(QString::number(n.id), static_cast<double>(n.id)));
        const std::string name = run->graph->nodes[n.nodeIndex].displayName();
        m_nodes->setItem(r, Name, new QTableWidgetItem(QString::fromStdString(name)));
        m_nodes->setItem(r, OpLabel, new QTableWidgetItem(QString::fromStdString(n.label)));
        m_nodes->setItem(r, Measured, nsItem(n.measuredNs));
        m_nodes->setItem(r, Rlx, nsItem(n.rlxNs));
        m_nodes->setItem(r, RlxError, percentItem(errorPercent(n.rlxNs, n.measuredNs)));
        m_nodes->setItem(r, Costscope, nsItem(n.costscopeNs));
        m_nodes->setItem(r, CostscopeError, percentItem(errorPercent(n.costscopeNs, n.measuredNs)));
    }
    m_nodes->setSortingEnabled(true);
}

} // namespace costscope
