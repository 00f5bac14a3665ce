// SPDX-License-Identifier: MIT
#pragma once
#include "canvas/overlay_model.h"
#include <QColor>
#include <QGraphicsItem>
#include <QString>

namespace costscope {

// One box on the canvas: a graph node or a collapsed group. It holds only what it draws; the graph stays in
// the document and the scene maps items back to units.
class NodeItem : public QGraphicsItem {
public:
    enum class Style { Op, Input, Param, Constant, Unknown, Group };
    enum { Type = UserType + 1 };

    struct Content {
        Style style = Style::Op;
        QString title;
        QString detail; // key attributes, or a group's aggregate line
        QString shape;  // output shape, or a group's path
        QColor accent;  // op-class colour of the title stripe
    };

    NodeItem(int unit, Content content, QSizeF size);
    int type() const override { return Type; }
    int unit() const { return m_unit; }
    Style style() const { return m_content.style; }
    const Content& content() const { return m_content; }

    void setHeat(QColor fill, QString badge);
    void setDetail(QString detail);
    QColor heat() const { return m_heat; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static QSizeF preferredSize(const Content& c);

private:
    int m_unit;
    Content m_content;
    QRectF m_rect;
    QColor m_heat;
    QString m_badge;
};

} // namespace costscope
