// SPDX-License-Identifier: MIT
#include "panels/cost_summary_bar.h"
#include "canvas/overlay_model.h"
#include <QHBoxLayout>
#include <QLabel>
#include <algorithm>

namespace costscope {

CostSummaryBar::CostSummaryBar(QWidget* parent) : QWidget(parent), m_label(new QLabel(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    m_label->setObjectName(QStringLiteral("costSummaryLabel"));
    m_label->setTextFormat(Qt::RichText);
    // The per-device list can be long (every library profile): the label takes the bar's width, the tooltip has all.
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    layout->addWidget(m_label, 1);
    showCosts(nullptr, {});
}

void CostSummaryBar::showCosts(const DeviceCosts* costs, const QString& currentDevice)
{
    m_shown.clear();
    const auto pick = costs ? costs->pick(m_version) : std::nullopt;
    if (!costs || !pick) {
        m_pick = tr("No costs yet");
        m_io.clear();
        m_totals.clear();
        m_label->setText(m_pick);
        m_label->setToolTip({});
        return;
    }
    const GraphCost& best = *costs->costs[*pick];
    m_pick = tr("Pick (%1, RLX %4 rule): <b>%2</b> %3")
                 .arg(QString::fromStdString(costs->model), QString::fromStdString(costs->devices[*pick]),
                      formatNs(best.totalNs), QString::fromUtf8(rlxVersionName(m_version).data()));
    const auto current = costs->find(currentDevice.toStdString());
    const IoProfile& io = (current ? *current : best).io;
    m_io = tr("IO: %1 launches · %2 sync · host out %3 · device traffic %4")
               .arg(io.kernelLaunches)
               .arg(io.syncPoints)
               .arg(formatBytes(static_cast<double>(io.hostOutputBytes)),
                    formatBytes(static_cast<double>(io.deviceTrafficBytes)));
    for (std::size_t d = 0; d < costs->devices.size(); ++d)
        if (costs->costs[d])
            m_shown.emplace_back(QString::fromStdString(costs->devices[d]), costs->costs[d]->totalNs);
    auto sorted = m_shown;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    QStringList parts;
    for (const auto& [name, ns] : sorted) {
        const QString entry = QStringLiteral("%1 %2").arg(name.toHtmlEscaped(), formatNs(ns));
        parts << (name == currentDevice ? QStringLiteral("<u>%1</u>").arg(entry) : entry);
    }
    m_totals = parts.join(QStringLiteral(" · "));
    const QString gap = QStringLiteral("&nbsp;&nbsp;&nbsp;│&nbsp;&nbsp;&nbsp;");
    m_label->setText(m_pick + gap + m_io + gap + m_totals);
    m_label->setToolTip(m_pick + QStringLiteral("<br>") + m_io + QStringLiteral("<br><br>") + parts.join(QStringLiteral("<br>")));
}

QString CostSummaryBar::pickText() const { return m_pick; }
QString CostSummaryBar::ioText() const { return m_io; }
QString CostSummaryBar::totalsText() const { return m_totals; }

std::optional<double> CostSummaryBar::totalNs(const QString& device) const
{
    for (const auto& [name, ns] : m_shown)
        if (name == device)
            return ns;
    return std::nullopt;
}

} // namespace costscope
