// SPDX-License-Identifier: MIT
#pragma once
#include <QGraphicsPathItem>
#include <QPolygonF>

namespace costscope {

// A routed edge (polyline through the layout's dummy nodes) with an arrow head; the tooltip names the tensor.
class EdgeItem : public QGraphicsPathItem {
public:
    enum { Type = UserType + 2 };
    EdgeItem(const QPolygonF& route, int sourceUnit, int targetUnit);
    int type() const override { return Type; }
    int sourceUnit() const { return m_source; }
    int targetUnit() const { return m_target; }
    const QPolygonF& route() const { return m_route; }
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPolygonF m_route;
    int m_source;
    int m_target;
};

} // namespace costscope
