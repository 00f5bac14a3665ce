// SPDX-License-Identifier: MIT
#include "charts/icicle_chart.h"
#include "analysis/cost_model.h"
#include "open_graph_feed.h"
#include "panel_dock.h"
#include <QHelpEvent>
#include <QMainWindow>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>
#include <algorithm>

namespace costscope {
namespace {
// Bars by depth, from warm to pale, as speedscope colours its rows.
QColor rowColour(int row, bool isNode)
{
    const QColor group = QColor::fromHsv((20 + row * 23) % 60, 130 - std::min(row * 12, 70), 240);
    return isNode ? group.lighter(112) : group;
}
} // namespace

IcicleChart::IcicleChart(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("icicleChart"));
    setMouseTracking(false);
    setMinimumHeight(kRowHeight * 3);
}

void IcicleChart::setCost(std::shared_ptr<const Graph> graph, std::shared_ptr<const GraphCost> cost)
{
    m_graph = std::move(graph);
    m_cells.clear();
    m_ns.clear();
    m_rows = 0;
    if (m_graph && cost && cost->nodes.size() == m_graph->nodes.size()) {
        m_tree = GroupTree::build(*m_graph);
        for (const NodeCost& c : cost->nodes)
            m_ns.push_back(c.skipped ? 0.0 : c.totalNs);
        m_cells = scopeIcicle(m_tree, *m_graph, m_ns);
        for (const IcicleCell& c : m_cells)
            m_rows = std::max(m_rows, c.row + 1);
    }
    updateGeometry();
    update();
}

QSize IcicleChart::sizeHint() const
{
    return {400, std::max(m_rows, 3) * kRowHeight};
}

QRectF IcicleChart::cellRect(std::size_t cell) const
{
    if (cell >= m_cells.size() || m_cells.front().ns <= 0)
        return {};
    const double scale = width() / m_cells.front().ns;
    const IcicleCell& c = m_cells[cell];
    return {c.startNs * scale, double(c.row * kRowHeight), c.ns * scale, double(kRowHeight - 1)};
}

int IcicleChart::cellAt(QPointF pos) const
{
    for (std::size_t i = 0; i < m_cells.size(); ++i)
        if (cellRect(i).contains(pos))
            return static_cast<int>(i);
    return -1;
}

NodeId IcicleChart::nodeOf(std::size_t cell) const
{
    const IcicleCell& c = m_cells[cell];
    if (c.group < 0)
        return m_graph->nodes[c.node].id;
    const auto& members = m_tree.groups[static_cast<std::size_t>(c.group)].allNodes;
    const std::size_t costliest =
        *std::max_element(members.begin(), members.end(), [this](std::size_t a, std::size_t b) {
            return (a < m_ns.size() ? m_ns[a] : 0) < (b < m_ns.size() ? m_ns[b] : 0);
        });
    return m_graph->nodes[costliest].id;
}

void IcicleChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_cells.empty()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(rect(), Qt::AlignCenter, tr("Open a graph: its predicted time by scope shows here"));
        return;
    }
    QFont font = p.font();
    font.setPointSizeF(8);
    p.setFont(font);
    for (std::size_t i = 0; i < m_cells.size(); ++i) {
        const QRectF r = cellRect(i);
        if (r.width() < 1)
            continue;
        p.setPen(QPen(palette().base().color(), 1));
        p.setBrush(rowColour(m_cells[i].row, m_cells[i].group < 0));
        p.drawRect(r);
        if (r.width() > 24) {
            p.setPen(QColor(0x1f, 0x26, 0x33));
            const QString text =
                QStringLiteral("%1  %2").arg(QString::fromStdString(m_cells[i].label), formatNs(m_cells[i].ns));
            p.drawText(r.adjusted(4, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       p.fontMetrics().elidedText(text, Qt::ElideRight, static_cast<int>(r.width() - 6)));
        }
    }
}

void IcicleChart::mousePressEvent(QMouseEvent* event)
{
    if (const int cell = cellAt(event->position()); cell >= 0 && event->button() == Qt::LeftButton)
        emit nodeSelected(nodeOf(static_cast<std::size_t>(cell)));
    QWidget::mousePressEvent(event);
}

bool IcicleChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const int cell = cellAt(help->pos()); cell >= 0) {
            const IcicleCell& c = m_cells[static_cast<std::size_t>(cell)];
            QToolTip::showText(help->globalPos(),
                               tr("%1\n%2, %3 % of the graph")
                                   .arg(QString::fromStdString(
                                       c.group > 0 ? m_tree.groups[static_cast<std::size_t>(c.group)].path : c.label))
                                   .arg(formatNs(c.ns))
                                   .arg(100.0 * c.ns / m_cells.front().ns, 0, 'f', 1),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

IcicleChart* installIcicleDock(QMainWindow* window, OpenGraphFeed* feed)
{
    auto* chart = new IcicleChart;
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(chart);
    addPanelDock(window, scroll, QObject::tr("Icicle"), QStringLiteral("icicleDock"), Qt::BottomDockWidgetArea,
                 QStringLiteral("topNodesDock"));
    QObject::connect(feed, &OpenGraphFeed::costsUpdated, chart, [feed, chart] {
        const GraphCost* cost = feed->overlay().cost();
        chart->setCost(feed->graph(), cost ? std::make_shared<const GraphCost>(*cost) : nullptr);
    });
    QObject::connect(feed, &OpenGraphFeed::graphChanged, chart, [chart] { chart->setCost(nullptr, nullptr); });
    QObject::connect(chart, &IcicleChart::nodeSelected, feed, &OpenGraphFeed::selectNodeRequested);
    return chart;
}

} // namespace costscope
