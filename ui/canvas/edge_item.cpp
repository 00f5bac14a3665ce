// SPDX-License-Identifier: MIT
#include "canvas/edge_item.h"
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QtMath>

namespace costscope {
namespace {
constexpr double kEdgeLod = 0.12; // below this edges are noise at the size of a pixel
}

EdgeItem::EdgeItem(const QPolygonF& route, int sourceUnit, int targetUnit)
    : m_route(route), m_source(sourceUnit), m_target(targetUnit)
{
    QPainterPath path;
    if (!route.isEmpty()) {
        path.moveTo(route.front());
        // Smooth the polyline through the dummy points with quadratic segments through the midpoints.
        for (int i = 1; i + 1 < route.size(); ++i)
            path.quadTo(route[i], (route[i] + route[i + 1]) / 2);
        path.lineTo(route.back());
    }
    setPath(path);
    setPen(QPen(QColor(0x8c, 0x95, 0xa6), 1.2));
    setZValue(-1);
    setFlags(ItemIsSelectable); // selected edges can be deleted
}

QPainterPath EdgeItem::shape() const
{
    QPainterPathStroker stroker;
    stroker.setWidth(8);
    return stroker.createStroke(path());
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    if (lod < kEdgeLod || m_route.size() < 2)
        return;
    const QPen line = isSelected() ? QPen(QColor(0x1e, 0x6f, 0xd9), 2.6) : pen();
    painter->setPen(line);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path());
    if (lod < 0.4)
        return;
    const QPointF tip = m_route.back();
    const QPointF from = path().pointAtPercent(0.97);
    const double angle = std::atan2(tip.y() - from.y(), tip.x() - from.x());
    constexpr double size = 7;
    const QPointF a = tip - QPointF(std::cos(angle - 0.45) * size, std::sin(angle - 0.45) * size);
    const QPointF b = tip - QPointF(std::cos(angle + 0.45) * size, std::sin(angle + 0.45) * size);
    painter->setPen(Qt::NoPen);
    painter->setBrush(line.color());
    painter->drawPolygon(QPolygonF{tip, a, b});
}

} // namespace costscope
