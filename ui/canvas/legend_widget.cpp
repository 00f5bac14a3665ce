// SPDX-License-Identifier: MIT
#include "canvas/legend_widget.h"
#include "canvas/overlay_model.h"
#include <QLinearGradient>
#include <QPainter>

namespace costscope {

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent) { setMinimumWidth(260); }

void LegendWidget::setOverlay(const OverlayModel* overlay)
{
    m_overlay = overlay;
    update();
}

namespace {
// The swatches of a categorical mode; empty for a magnitude mode.
std::vector<std::pair<QColor, QString>> swatches(const OverlayModel& overlay)
{
    std::vector<std::pair<QColor, QString>> out;
    if (overlay.mode() == OverlayMode::Dominant)
        for (auto t : {OverlayModel::Term::Compute, OverlayModel::Term::Memory, OverlayModel::Term::Dispatch,
                       OverlayModel::Term::Sync})
            out.emplace_back(OverlayModel::termColour(t), OverlayModel::termName(t));
    if (overlay.mode() == OverlayMode::SyncPoints) {
        out.emplace_back(OverlayModel::termColour(OverlayModel::Term::Sync), LegendWidget::tr("sync point"));
        out.emplace_back(QColor(0xee, 0xef, 0xf2), LegendWidget::tr("no sync point"));
    }
    return out;
}

QString formatValue(const OverlayModel& overlay, double v)
{
    return overlay.mode() == OverlayMode::IoBytes ? formatBytes(v) : formatNs(v);
}
} // namespace

QString LegendWidget::text() const
{
    if (!m_overlay || !m_overlay->active())
        return m_overlay && m_overlay->mode() == OverlayMode::Measured ? tr("No measured times: run the graph (Run panel)")
                                                                       : tr("No cost overlay");
    if (const auto items = swatches(*m_overlay); !items.empty()) {
        QStringList names;
        for (const auto& [colour, name] : items)
            names << name;
        return names.join(QStringLiteral(" | "));
    }
    return QStringLiteral("%1 … %2").arg(formatValue(*m_overlay, m_overlay->scaleMin()),
                                         formatValue(*m_overlay, m_overlay->scaleMax()));
}

void LegendWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QFont f = font();
    f.setPointSizeF(8);
    p.setFont(f);
    const QRectF area = rect().adjusted(4, 4, -4, -4);
    if (!m_overlay || !m_overlay->active()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(area, Qt::AlignVCenter | Qt::AlignLeft, text());
        return;
    }
    if (const auto items = swatches(*m_overlay); !items.empty()) {
        double x = area.left();
        for (const auto& [colour, name] : items) {
            p.setPen(QPen(QColor(0xa7, 0xae, 0xbb), 0.8));
            p.setBrush(colour);
            p.drawRoundedRect(QRectF(x, area.center().y() - 6, 12, 12), 3, 3);
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QPointF(x + 16, area.center().y() + 4), name);
            x += 24 + p.fontMetrics().horizontalAdvance(name);
        }
        return;
    }
    const QString lo = formatValue(*m_overlay, m_overlay->scaleMin());
    const QString hi = formatValue(*m_overlay, m_overlay->scaleMax());
    const double loW = p.fontMetrics().horizontalAdvance(lo) + 8;
    const double hiW = p.fontMetrics().horizontalAdvance(hi) + 8;
    const QRectF bar(area.left() + loW, area.center().y() - 6, area.width() - loW - hiW, 12);
    QLinearGradient grad(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 10; ++i)
        grad.setColorAt(i / 10.0, OverlayModel::heat(0.08 + 0.92 * i / 10.0));
    p.setPen(QPen(QColor(0xa7, 0xae, 0xbb), 0.8));
    p.setBrush(grad);
    p.drawRoundedRect(bar, 3, 3);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRectF(area.left(), area.top(), loW, area.height()), Qt::AlignVCenter | Qt::AlignLeft, lo);
    p.drawText(QRectF(bar.right() + 6, area.top(), hiW, area.height()), Qt::AlignVCenter | Qt::AlignLeft, hi);
}

void LegendWidget::refresh()
{
    // The nodes' own range, which the auto scale may have widened, is one hover away.
    if (m_overlay && m_overlay->active() && swatches(*m_overlay).empty())
        setToolTip(tr("Nodes span %1 … %2; scale %3 (View → Absolute Heat Scale)")
                       .arg(formatValue(*m_overlay, m_overlay->minValue()), formatValue(*m_overlay, m_overlay->maxValue()),
                            m_overlay->scale() == HeatScale::Absolute ? tr("absolute") : tr("auto, at least 10×")));
    else
        setToolTip(QString());
    QWidget::update();
}

} // namespace costscope
