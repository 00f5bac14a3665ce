// SPDX-License-Identifier: MIT
#include "canvas/canvas_view.h"
#include "canvas/minimap.h"
#include "edit/op_palette.h"
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QGraphicsItem>
#include <QKeyEvent>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QScrollBar>
#include <QVariantAnimation>
#include <QWheelEvent>
#include <algorithm>

namespace costscope {

CanvasView::CanvasView(QGraphicsScene* scene, QWidget* parent) : QGraphicsView(scene, parent), m_minimap(new Minimap(this))
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    placeMinimap();
    connect(this, &CanvasView::viewChanged, this, &CanvasView::updateMinimapVisibility);
    connect(scene, &QGraphicsScene::sceneRectChanged, this, &CanvasView::updateMinimapVisibility);
}

void CanvasView::zoomBy(double factor)
{
    const double current = zoom();
    const double target = std::clamp(current * factor, 0.005, 6.0);
    scale(target / current, target / current);
    m_fitted = false;
    emit viewChanged();
}

void CanvasView::fitAll()
{
    if (!scene() || scene()->sceneRect().isEmpty())
        return;
    // Into the room the view has without scroll bars (fitInView takes the viewport as it is: scroll bars shown for the
    // zoom before go away only later, and the graph stayed fitted into the smaller area). A tiny graph is not blown
    // up past a comfortable reading size.
    const QRectF all = scene()->sceneRect();
    const QSizeF room = QSizeF(maximumViewportSize()) - QSizeF(4, 4);
    const double fitted = std::min({room.width() / all.width(), room.height() / all.height(), 1.2});
    setTransform(QTransform::fromScale(std::max(fitted, 0.005), std::max(fitted, 0.005)));
    centerOn(all.center());
    m_fitted = true;
    emit viewChanged();
}

void CanvasView::reveal(const QGraphicsItem* item)
{
    if (!item)
        return;
    constexpr double kReadableZoom = 0.9;
    if (zoom() < kReadableZoom)
        zoomBy(kReadableZoom / zoom());
    showSceneRect(item->sceneBoundingRect());
    m_pulseRect = item->sceneBoundingRect().adjusted(-10, -10, 10, 10);
    if (!m_pulse) {
        m_pulse = new QVariantAnimation(this);
        m_pulse->setStartValue(1.0);
        m_pulse->setEndValue(0.0);
        m_pulse->setDuration(1500);
        m_pulse->setEasingCurve(QEasingCurve::InQuad);
        connect(m_pulse, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
            m_pulseStrength = v.toDouble();
            viewport()->update();
        });
    }
    m_pulse->stop();
    m_pulseStrength = 1.0;
    m_pulse->start();
    viewport()->update();
    emit viewChanged();
}

void CanvasView::showSceneRect(const QRectF& rect)
{
    // Centred in the part of the view the minimap leaves free (the larger of the strips left of and above it): on a
    // small canvas the minimap covers the view's centre.
    updateMinimapVisibility();
    QRect free = viewport()->rect();
    if (m_minimap->isVisible()) {
        const QRect covered = m_minimap->geometry();
        const QRect left(0, 0, covered.left(), free.height());
        const QRect above(0, 0, free.width(), covered.top());
        free = left.width() * left.height() >= above.width() * above.height() ? left : above;
    }
    const double z = zoom();
    const QSizeF freeInScene(free.width() / z, free.height() / z);
    QPointF target = rect.center();
    constexpr double kMargin = 40;
    if (rect.height() > freeInScene.height())
        target.setY(rect.top() - kMargin + freeInScene.height() / 2);
    if (rect.width() > freeInScene.width())
        target.setX(rect.left() - kMargin + freeInScene.width() / 2);
    centerOn(target + QPointF(viewport()->rect().center() - free.center()) / z);
    emit viewChanged();
}

void CanvasView::drawForeground(QPainter* painter, const QRectF& rect)
{
    QGraphicsView::drawForeground(painter, rect);
    if (m_pulseStrength <= 0)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QColor ring(0x1f, 0x77, 0xe8);
    ring.setAlphaF(static_cast<float>(m_pulseStrength));
    QPen pen(ring, 5);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(m_pulseRect, 12, 12);
    painter->restore();
}

void CanvasView::contextMenuEvent(QContextMenuEvent* event)
{
    if (itemAt(event->pos())) {
        QGraphicsView::contextMenuEvent(event);
        return;
    }
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("canvasMenu"));
    emit backgroundContextMenu(&menu, mapToScene(event->pos()));
    if (!menu.isEmpty())
        menu.exec(event->globalPos());
    event->accept();
}

void CanvasView::setMinimapVisible(bool visible)
{
    m_minimapEnabled = visible;
    updateMinimapVisibility();
}

void CanvasView::updateMinimapVisibility()
{
    // The minimap only helps when part of the graph is out of view.
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    m_minimap->setVisible(m_minimapEnabled && scene() && !visible.contains(scene()->sceneRect()));
}

void CanvasView::wheelEvent(QWheelEvent* event)
{
    if (event->angleDelta().y() == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void CanvasView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25); return;
    case Qt::Key_Minus: zoomBy(0.8); return;
    case Qt::Key_0: fitAll(); return;
    default: QGraphicsView::keyPressEvent(event);
    }
}

void CanvasView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    placeMinimap();
    updateMinimapVisibility();
    emit viewportResized(QSizeF(maximumViewportSize()));
}

void CanvasView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    emit viewChanged();
}

void CanvasView::placeMinimap()
{
    const QSize size(220, 160);
    m_minimap->setGeometry(viewport()->width() - size.width() - 12, viewport()->height() - size.height() - 12,
                           size.width(), size.height());
}

namespace {
bool isPaletteOp(const QMimeData* mime)
{
    return mime->hasFormat(QString::fromLatin1(OpPalette::mimeType()));
}

QString localFile(const QMimeData* mime)
{
    return mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().front().isLocalFile()
             ? mime->urls().front().toLocalFile()
             : QString();
}
} // namespace

// Files are accepted here, not left to the window: QGraphicsView refuses every drag move its scene does not take,
// and a refused move means the drop never comes.
void CanvasView::dragEnterEvent(QDragEnterEvent* event)
{
    if (isPaletteOp(event->mimeData()) || !localFile(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        QGraphicsView::dragEnterEvent(event);
}

void CanvasView::dragMoveEvent(QDragMoveEvent* event)
{
    if (isPaletteOp(event->mimeData()) || !localFile(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        QGraphicsView::dragMoveEvent(event);
}

void CanvasView::dropEvent(QDropEvent* event)
{
    const QString type = QString::fromLatin1(OpPalette::mimeType());
    if (isPaletteOp(event->mimeData())) {
        event->acceptProposedAction();
        emit opDropped(event->mimeData()->data(type), mapToScene(event->position().toPoint()));
    } else if (const QString file = localFile(event->mimeData()); !file.isEmpty()) {
        event->acceptProposedAction();
        emit fileDropped(file);
    } else {
        QGraphicsView::dropEvent(event);
    }
}

} // namespace costscope
