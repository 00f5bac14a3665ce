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
        const bool measured = m_overlay && m_overlay->mode() == OverlayMode::Measured;
        p.drawText(area, Qt::AlignVCenter | Qt::AlignLeft,
                   measured ? tr("No measured times: run the graph (Run panel)") : tr("No cost overlay"));
        return;
    }
    if (m_overlay->mode() == OverlayMode::Dominant) {
        double x = area.left();
        for (auto t : {OverlayModel::Term::Compute, OverlayModel::Term::Memory, OverlayModel::Term::Dispatch,
                       OverlayModel::Term::Sync}) {
            p.setPen(Qt::NoPen);
            p.setBrush(OverlayModel::termColour(t));
            p.drawRoundedRect(QRectF(x, area.center().y() - 6, 12, 12), 3, 3);
            p.setPen(palette().color(QPalette::WindowText));
            const QString name = OverlayModel::termName(t);
            p.drawText(QPointF(x + 16, area.center().y() + 4), name);
            x += 24 + p.fontMetrics().horizontalAdvance(name);
        }
        return;
    }
    const bool bytes = m_overlay->mode() == OverlayMode::IoBytes;
    const QString lo = bytes ? formatBytes(m_overlay->minValue()) : formatNs(m_overlay->minValue());
    const QString hi = bytes ? formatBytes(m_overlay->maxValue()) : formatNs(m_overlay->maxValue());
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

} // namespace costscope
