// SPDX-License-Identifier: MIT
#pragma once
#include "canvas/overlay_model.h"
#include <QColor>
#include <QGraphicsItem>
#include <QPen>
#include <QString>

namespace costscope {

// One box on the canvas: a graph node or a collapsed group. It holds only what it draws; the graph stays in
// the document and the scene maps items back to units.
class NodeItem : public QGraphicsItem {
public:
    enum class Style { Op, Input, Param, Constant, Unknown, Group };
    // How much a box says at a zoom (semantic zoom): everything; the op and its cost; the op alone; a coloured box.
    // Fewer words at lower zoom, drawn larger, so what is shown stays legible when a whole graph is fitted.
    enum class Detail { Full, OpAndCost, OpName, Box };
    enum { Type = UserType + 1 };

    struct Content {
        Style style = Style::Op;
        QString title;
        QString detail; // key attributes, or a group's aggregate line
        QString shape;  // output shape, or a group's path
        QString op;     // the op label alone (a group's name): what a zoomed-out box still says
        QColor accent;  // op-class colour of the title stripe
    };

    NodeItem(int unit, Content content, QSizeF size);
    int type() const override { return Type; }
    int unit() const { return m_unit; }
    Style style() const { return m_content.style; }
    const Content& content() const { return m_content; }

    void setHeat(QColor fill, QString badge);
    void setDetail(QString detail);
    // The node's cost as the overlay shows it ("1.2 µs"); empty when there is none.
    void setCost(QString cost);
    const QString& cost() const { return m_cost; }
    static Detail detailForZoom(double levelOfDetail);
    // The detail level of the last paint (Full before the first one).
    Detail paintedDetail() const { return m_paintedDetail; }
    QColor heat() const { return m_heat; }
    // The on-screen height, in pixels, of the box's op label when painted at this zoom; 0 where only a coloured box
    // is drawn. What "legible at fit" is measured by.
    double labelScreenPixels(double levelOfDetail) const;
    // Why the node is invalid (drawn red with a "!" badge, said in the tooltip); empty when it is fine.
    void setProblem(QString problem);
    const QString& problem() const { return m_problem; }
    // Why RLX leaves this node unfused (an amber "fuse" badge, said in the tooltip); empty when nothing is missed.
    void setFusionHint(QString hint);
    const QString& fusionHint() const { return m_fusionHint; }
    // An outline in this colour (graph diffs: added, removed, changed); invalid = none.
    void setMark(QColor mark);
    QColor mark() const { return m_mark; }

    // Ports for editing: `inputs` input ports on the top edge (left edge when laid out left to right) and one
    // output port on the opposite edge. Positions are in item coordinates.
    void setPorts(int inputs, bool leftToRight);
    int inputPortCount() const { return m_inputPorts; }
    QPointF inputPortPos(int slot) const;
    QPointF outputPortPos() const;
    bool isOnOutputPort(QPointF itemPos) const;
    // The input port nearest to itemPos, or -1 when the node has none.
    int nearestInputPort(QPointF itemPos) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static QSizeF preferredSize(const Content& c);

private:
    QPen borderPen() const;
    void paintFrame(QPainter* painter, const QColor& fill) const;
    void paintBox(QPainter* painter, const QColor& fill) const;
    void paintFull(QPainter* painter, const QColor& fill) const;
    void paintSummary(QPainter* painter, const QColor& fill, double levelOfDetail, bool withCost) const;
    QString summaryLabel() const;
    // The summary levels' label size in scene units: legible on screen, shrunk to fit the box.
    double summaryPixels(double levelOfDetail, bool withCost) const;
    void paintPorts(QPainter* painter) const;
    void paintFusionBadge(QPainter* painter) const;
    void keepBaseToolTip();
    void refreshToolTip();

    int m_unit;
    Content m_content;
    QRectF m_rect;
    QColor m_heat;
    QString m_badge;
    QString m_cost;
    Detail m_paintedDetail = Detail::Full;
    QString m_problem;
    QString m_fusionHint;
    QColor m_mark;
    QString m_baseToolTip;
    int m_inputPorts = 0;
    bool m_leftToRight = false;
};

} // namespace costscope
