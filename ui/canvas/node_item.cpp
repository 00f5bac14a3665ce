// SPDX-License-Identifier: MIT
#include "canvas/node_item.h"
#include <QCoreApplication>
#include <QFont>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>
#include <cmath>

namespace costscope {
namespace {

constexpr double kRadius = 6;
constexpr double kStripe = 4;
// Semantic zoom: the zoom at which each detail level starts. Below kNameLod even one short word per box would be
// unreadable: boxes and heat colours only (which also keeps 50k nodes smooth).
constexpr double kFullLod = 0.75;
constexpr double kCostLod = 0.45;
constexpr double kNameLod = 0.12;
// The on-screen text height, in pixels, that the reduced levels aim for.
constexpr double kSummaryScreenPixels = 11;
constexpr double kPortRadius = 4;
constexpr double kPortHit = 9; // generous: a port is small, and a near miss should still start a connection

QColor baseFill(NodeItem::Style s)
{
    switch (s) {
    case NodeItem::Style::Input: return QColor(0xe3, 0xf4, 0xe6);
    case NodeItem::Style::Param: return QColor(0xf1, 0xf2, 0xf5);
    case NodeItem::Style::Constant: return QColor(0xf1, 0xf2, 0xf5);
    case NodeItem::Style::Unknown: return QColor(0xfd, 0xec, 0xea);
    case NodeItem::Style::Group: return QColor(0xe8, 0xee, 0xf8);
    case NodeItem::Style::Op: break;
    }
    return QColor(0xff, 0xff, 0xff);
}

QColor textOn(const QColor& fill) { return fill.lightnessF() < 0.5 ? QColor(Qt::white) : QColor(0x1f, 0x26, 0x33); }

} // namespace

NodeItem::NodeItem(int unit, Content content, QSizeF size)
    : m_unit(unit), m_content(std::move(content)), m_rect(-size.width() / 2, -size.height() / 2, size.width(),
                                                          size.height())
{
    setFlags(ItemIsSelectable);
    setAcceptHoverEvents(false);
}

QSizeF NodeItem::preferredSize(const Content& c)
{
    const auto chars = std::max({c.title.size(), c.detail.size(), c.shape.size()});
    const double width = std::clamp(7.0 * static_cast<double>(chars) + 24, 96.0, 280.0);
    const int lines = 1 + (c.detail.isEmpty() ? 0 : 1) + (c.shape.isEmpty() ? 0 : 1);
    const double height = (c.style == Style::Param || c.style == Style::Constant) ? 16.0 * lines + 8 : 17.0 * lines + 14;
    return {width, height};
}

void NodeItem::setHeat(QColor fill, QString badge)
{
    m_heat = std::move(fill);
    m_badge = std::move(badge);
    update();
}

void NodeItem::setCost(QString cost)
{
    if (cost == m_cost)
        return;
    m_cost = std::move(cost);
    update();
}

void NodeItem::setDetail(QString detail)
{
    m_content.detail = std::move(detail);
    update();
}

void NodeItem::setProblem(QString problem)
{
    if (problem == m_problem)
        return;
    keepBaseToolTip();
    m_problem = std::move(problem);
    refreshToolTip();
    update();
}

void NodeItem::setFusionHint(QString hint)
{
    if (hint == m_fusionHint)
        return;
    keepBaseToolTip();
    m_fusionHint = std::move(hint);
    refreshToolTip();
    update();
}

// The tooltip the scene gave the item, before problems and hints were added to it.
void NodeItem::keepBaseToolTip()
{
    if (m_problem.isEmpty() && m_fusionHint.isEmpty())
        m_baseToolTip = toolTip();
}

void NodeItem::refreshToolTip()
{
    QString tip = m_baseToolTip;
    if (!m_problem.isEmpty())
        tip += QStringLiteral("\n⚠ ") + m_problem;
    if (!m_fusionHint.isEmpty())
        tip += QStringLiteral("\nMissed fusion: ") + m_fusionHint;
    setToolTip(tip);
}

void NodeItem::setMark(QColor mark)
{
    m_mark = std::move(mark);
    update();
}

void NodeItem::setPorts(int inputs, bool leftToRight)
{
    prepareGeometryChange();
    m_inputPorts = std::max(inputs, 0);
    m_leftToRight = leftToRight;
    update();
}

QPointF NodeItem::inputPortPos(int slot) const
{
    const double t = static_cast<double>(slot + 1) / static_cast<double>(m_inputPorts + 1);
    return m_leftToRight ? QPointF(m_rect.left(), m_rect.top() + t * m_rect.height())
                         : QPointF(m_rect.left() + t * m_rect.width(), m_rect.top());
}

QPointF NodeItem::outputPortPos() const
{
    return m_leftToRight ? QPointF(m_rect.right(), m_rect.center().y()) : QPointF(m_rect.center().x(), m_rect.bottom());
}

bool NodeItem::isOnOutputPort(QPointF itemPos) const
{
    if (m_content.style == Style::Group)
        return false;
    const QPointF d = itemPos - outputPortPos();
    return d.x() * d.x() + d.y() * d.y() <= kPortHit * kPortHit;
}

int NodeItem::nearestInputPort(QPointF itemPos) const
{
    int best = -1;
    double bestDistance = 0;
    for (int i = 0; i < m_inputPorts; ++i) {
        const QPointF d = itemPos - inputPortPos(i);
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (best < 0 || distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

QRectF NodeItem::boundingRect() const { return m_rect.adjusted(-kPortRadius - 3, -9, kPortRadius + 6, kPortRadius + 3); }

NodeItem::Detail NodeItem::detailForZoom(double levelOfDetail)
{
    if (levelOfDetail >= kFullLod)
        return Detail::Full;
    if (levelOfDetail >= kCostLod)
        return Detail::OpAndCost;
    if (levelOfDetail >= kNameLod)
        return Detail::OpName;
    return Detail::Box;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QColor fill = m_heat.isValid() ? m_heat : baseFill(m_content.style);
    m_paintedDetail = detailForZoom(lod);
    switch (m_paintedDetail) {
    case Detail::Box:
        paintBox(painter, fill);
        return;
    case Detail::OpName:
        paintSummary(painter, fill, lod, false);
        return;
    case Detail::OpAndCost:
        paintSummary(painter, fill, lod, true);
        return;
    case Detail::Full:
        paintFull(painter, fill);
        return;
    }
}

void NodeItem::paintBox(QPainter* painter, const QColor& fill) const
{
    const QColor edge = isSelected()           ? QColor(0x1e, 0x6f, 0xd9)
                        : m_mark.isValid()     ? m_mark
                        : !m_problem.isEmpty() ? QColor(0xd0, 0x1f, 0x1f)
                                               : QColor(0x9a, 0xa3, 0xb3);
    const double inset = m_mark.isValid() || !m_problem.isEmpty() ? 5 : 2; // marks must read when zoomed out
    painter->fillRect(m_rect, edge);
    painter->fillRect(m_rect.adjusted(inset, inset, -inset, -inset), m_heat.isValid() ? m_heat : fill.darker(104));
    painter->fillRect(QRectF(m_rect.topLeft(), QSizeF(m_rect.width(), kStripe * 2)),
                      m_problem.isEmpty() ? m_content.accent : QColor(0xd0, 0x1f, 0x1f));
}

QPen NodeItem::borderPen() const
{
    QPen border(isSelected() ? QColor(0x1e, 0x6f, 0xd9) : QColor(0xa7, 0xae, 0xbb), isSelected() ? 2.5 : 1.0);
    if (m_content.style == Style::Unknown) {
        border.setColor(isSelected() ? border.color() : QColor(0xd0, 0x3a, 0x2f));
        border.setStyle(Qt::DashLine);
    }
    if (m_content.style == Style::Group)
        border.setWidthF(isSelected() ? 2.5 : 1.6);
    if (!m_problem.isEmpty()) {
        border.setColor(QColor(0xd0, 0x1f, 0x1f));
        border.setWidthF(isSelected() ? 3.0 : 2.2);
    }
    if (m_mark.isValid()) {
        border.setColor(m_mark);
        border.setWidthF(isSelected() ? 4.0 : 3.2);
    }
    return border;
}

void NodeItem::paintFrame(QPainter* painter, const QColor& fill) const
{
    painter->setPen(borderPen());
    painter->setBrush(fill);
    if (m_content.style == Style::Group) // a box behind the box reads as "a stack of nodes"
        painter->drawRoundedRect(m_rect.translated(4, -4), kRadius, kRadius);
    painter->drawRoundedRect(m_rect, kRadius, kRadius);
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_content.accent);
    painter->drawRoundedRect(QRectF(m_rect.left() + 1, m_rect.top() + 1, kStripe, m_rect.height() - 2), 2, 2);
}

QString NodeItem::summaryLabel() const
{
    return m_content.op.isEmpty() ? m_content.title : m_content.op;
}

double NodeItem::summaryPixels(double levelOfDetail, bool withCost) const
{
    const bool costLine = withCost && !m_cost.isEmpty();
    const QRectF text = m_rect.adjusted(kStripe + 6, 2, -4, -2);
    const double lines = costLine ? 2.2 : 1.0; // one word may take the box's height: it is all the box says
    QFont font;
    font.setBold(true);
    font.setPixelSize(100);
    const double widthAt100 = QFontMetricsF(font).horizontalAdvance(summaryLabel());
    return std::min({kSummaryScreenPixels / levelOfDetail, text.height() / lines,
                     widthAt100 > 0 ? 100.0 * text.width() / widthAt100 : text.height()});
}

double NodeItem::labelScreenPixels(double levelOfDetail) const
{
    switch (detailForZoom(levelOfDetail)) {
    case Detail::Box:
        return 0;
    case Detail::OpName:
        return std::max(1.0, std::floor(summaryPixels(levelOfDetail, false))) * levelOfDetail;
    case Detail::OpAndCost:
        return std::max(1.0, std::floor(summaryPixels(levelOfDetail, true))) * levelOfDetail;
    case Detail::Full:
        break;
    }
    QFont font;
    font.setPointSizeF(8.5);
    return QFontInfo(font).pixelSize() * levelOfDetail;
}

// The op (and its cost) alone, in a font that keeps a legible size on screen at this zoom, shrunk where the box is
// too small for it.
void NodeItem::paintSummary(QPainter* painter, const QColor& fill, double levelOfDetail, bool withCost) const
{
    paintFrame(painter, fill);
    const QString op = summaryLabel();
    const bool costLine = withCost && !m_cost.isEmpty();
    const QRectF text = m_rect.adjusted(kStripe + 6, 2, -4, -2);
    const double pixels = summaryPixels(levelOfDetail, withCost);
    QFont font = painter->font();
    font.setBold(true);
    font.setPixelSize(std::max(1, static_cast<int>(pixels)));
    painter->setFont(font);
    painter->setPen(textOn(fill));
    QRectF line(text.left(), text.center().y() - (costLine ? pixels * 1.1 : pixels * 0.5), text.width(),
                costLine ? pixels * 1.2 : pixels);
    painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                      painter->fontMetrics().elidedText(op, Qt::ElideRight, static_cast<int>(line.width())));
    if (!costLine)
        return;
    font.setBold(false);
    painter->setFont(font);
    line.translate(0, pixels * 1.1);
    painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                      painter->fontMetrics().elidedText(m_cost, Qt::ElideRight, static_cast<int>(line.width())));
}

void NodeItem::paintFull(QPainter* painter, const QColor& fill) const
{
    paintFrame(painter, fill);
    const QColor ink = textOn(fill);
    QFont font = painter->font();
    font.setPointSizeF(8.5);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(ink);
    const QRectF text = m_rect.adjusted(kStripe + 8, 5, -8, -4);
    const double lineHeight = m_content.style == Style::Param || m_content.style == Style::Constant ? 16 : 17;
    QRectF line(text.left(), text.top(), text.width(), lineHeight);
    painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter, m_content.title);
    font.setBold(false);
    font.setPointSizeF(7.5);
    painter->setFont(font);
    QColor soft = ink;
    soft.setAlphaF(0.72f);
    painter->setPen(soft);
    for (const QString* s : {&m_content.detail, &m_content.shape}) {
        if (s->isEmpty())
            continue;
        line.translate(0, lineHeight);
        painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                          painter->fontMetrics().elidedText(*s, Qt::ElideRight, static_cast<int>(line.width())));
    }
    if (!m_cost.isEmpty()) { // right-aligned on the last line, over its elided end
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(ink);
        const double w = painter->fontMetrics().horizontalAdvance(m_cost) + 6;
        const QRectF costRect(line.right() - w, line.top(), w, line.height());
        painter->fillRect(costRect, fill);
        painter->drawText(costRect, Qt::AlignRight | Qt::AlignVCenter, m_cost);
    }
    paintPorts(painter);
    paintFusionBadge(painter);
    if (m_content.style == Style::Unknown || !m_badge.isEmpty() || !m_problem.isEmpty()) {
        const QString mark = !m_problem.isEmpty()                    ? QStringLiteral("!")
                             : m_content.style == Style::Unknown ? QStringLiteral("?")
                                                                   : m_badge;
        font.setBold(true);
        font.setPointSizeF(6.5);
        painter->setFont(font);
        const double w = painter->fontMetrics().horizontalAdvance(mark) + 10;
        const QRectF pill(m_rect.right() - w - 4, m_rect.top() - 7, w, 14);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0xd0, 0x3a, 0x2f));
        painter->drawRoundedRect(pill, 7, 7);
        painter->setPen(Qt::white);
        painter->drawText(pill, Qt::AlignCenter, mark);
    }
}

void NodeItem::paintFusionBadge(QPainter* painter) const
{
    if (m_fusionHint.isEmpty())
        return;
    QFont font = painter->font();
    font.setBold(true);
    font.setPointSizeF(6.5);
    painter->setFont(font);
    const QString mark = QCoreApplication::translate("NodeItem", "fuse");
    const double w = painter->fontMetrics().horizontalAdvance(mark) + 10;
    const QRectF pill(m_rect.left() + kStripe + 6, m_rect.top() - 7, w, 14);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0xe0, 0x8e, 0x0b));
    painter->drawRoundedRect(pill, 7, 7);
    painter->setPen(Qt::white);
    painter->drawText(pill, Qt::AlignCenter, mark);
}

void NodeItem::paintPorts(QPainter* painter) const
{
    if (m_content.style == Style::Group)
        return;
    painter->setPen(QPen(QColor(0x5b, 0x66, 0x7a), 1));
    painter->setBrush(QColor(0xe9, 0xee, 0xf6));
    for (int i = 0; i < m_inputPorts; ++i)
        painter->drawEllipse(inputPortPos(i), kPortRadius, kPortRadius);
    painter->setBrush(QColor(0x5b, 0x66, 0x7a));
    painter->drawEllipse(outputPortPos(), kPortRadius, kPortRadius);
}

} // namespace costscope
