// SPDX-License-Identifier: MIT
#include "canvas/minimap.h"
#include "canvas/canvas_view.h"
#include <QMouseEvent>
#include <QPainter>

namespace costscope {

Minimap::Minimap(CanvasView* main) : QGraphicsView(main), m_main(main)
{
    setScene(main->scene());
    setInteractive(false);
    // A file dragged over the minimap is for the window (a graphics view would refuse it): leave drops to it.
    setAcceptDrops(false);
    viewport()->setAcceptDrops(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::Box);
    setStyleSheet(QStringLiteral("border: 1px solid #b9c0cc; background: #f5f6f8;"));
    setCacheMode(QGraphicsView::CacheBackground);
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    connect(main, &CanvasView::viewChanged, viewport(), qOverload<>(&QWidget::update));
    connect(main->scene(), &QGraphicsScene::sceneRectChanged, this, &Minimap::refit);
}

void Minimap::refit()
{
    if (scene())
        fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
}

void Minimap::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    refit();
}

// The minimap is hidden while the whole graph is in view, and a fit made while hidden used whatever size its
// viewport had then (the Compare window's minimaps showed a corner of empty scene): fit again on showing.
void Minimap::showEvent(QShowEvent* event)
{
    QGraphicsView::showEvent(event);
    refit();
}

void Minimap::drawForeground(QPainter* painter, const QRectF&)
{
    const QRectF visible = m_main->mapToScene(m_main->viewport()->rect()).boundingRect();
    painter->setPen(QPen(QColor(0x1e, 0x6f, 0xd9), 0));
    painter->setBrush(QColor(0x1e, 0x6f, 0xd9, 40));
    painter->drawRect(visible);
}

void Minimap::centreMainOn(const QPoint& pos)
{
    m_main->centerOn(mapToScene(pos));
    viewport()->update();
}

void Minimap::mousePressEvent(QMouseEvent* event) { centreMainOn(event->position().toPoint()); }

void Minimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        centreMainOn(event->position().toPoint());
}

} // namespace costscope
