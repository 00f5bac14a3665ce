// SPDX-License-Identifier: MIT
#include "canvas/group_frames.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <iterator>
#include <map>

namespace costscope {

namespace {

constexpr double kPad = 8;          // between a frame and what it holds, per level of frames inside it
constexpr double kLabelRoom = 16;   // above the members, for the label
constexpr double kLabelGap = 6;     // between labels that start on one row
constexpr double kLabelPixels = 11; // on screen, at any zoom: a group's name is what a zoomed-out view reads

bool shownOpen(const GroupTree& tree, const std::vector<bool>& collapsed, int group)
{
    if (group <= 0)
        return false;
    for (int g = group; g > 0; g = tree.groups[static_cast<std::size_t>(g)].parent)
        if (static_cast<std::size_t>(g) < collapsed.size() && collapsed[static_cast<std::size_t>(g)])
            return false;
    return true;
}

QRectF transposed(const QRectF& r)
{
    return {r.top(), r.left(), r.height(), r.width()};
}

QFont labelFont()
{
    QFont font;
    font.setBold(true);
    font.setPixelSize(static_cast<int>(kLabelRoom - 2)); // the largest a label is painted
    return font;
}

// One layer of one column: its boxes left to right (across the layers), and how far it reaches along them.
struct Row {
    double top = 0, bottom = 0;
    std::vector<std::size_t> units;
};

} // namespace

std::vector<GroupFrame> groupFrames(const GroupTree& tree, const ViewGraph& view, const std::vector<bool>& collapsed,
                                    const std::vector<QRectF>& unitRects, const std::vector<int>& unitColumns,
                                    const std::vector<int>& unitLayers, layout::Direction direction)
{
    // Worked out top to bottom; a left-to-right drawing is transposed in and out.
    const bool across = direction == layout::Direction::LeftToRight;
    const std::size_t units = std::min(view.units.size(), unitRects.size());
    std::vector<QRectF> rects(units);
    for (std::size_t u = 0; u < units; ++u)
        rects[u] = across ? transposed(unitRects[u]) : unitRects[u];
    // A node belongs to its innermost group; a collapsed group's box to the group above it.
    std::vector<int> owner(units, 0);
    for (std::size_t u = 0; u < units; ++u) {
        const auto& unit = view.units[u];
        owner[u] = unit.isGroup ? tree.groups[static_cast<std::size_t>(unit.group)].parent
                                : (unit.node < tree.groupOfNode.size() ? tree.groupOfNode[unit.node] : 0);
    }
    auto holds = [&](int group, std::size_t u) {
        for (int g = owner[u]; g > 0; g = tree.groups[static_cast<std::size_t>(g)].parent)
            if (g == group)
                return true;
        return false;
    };
    // Rows per column, in layer order.
    std::map<int, std::map<int, Row>> columns;
    for (std::size_t u = 0; u < units; ++u) {
        const int column = u < unitColumns.size() ? unitColumns[u] : 0;
        const int layer = u < unitLayers.size() ? unitLayers[u] : static_cast<int>(u);
        Row& row = columns[column][layer];
        row.top = row.units.empty() ? rects[u].top() : std::min(row.top, rects[u].top());
        row.bottom = row.units.empty() ? rects[u].bottom() : std::max(row.bottom, rects[u].bottom());
        row.units.push_back(u);
    }
    for (auto& [column, rows] : columns)
        for (auto& [layer, row] : rows)
            std::sort(row.units.begin(), row.units.end(),
                      [&](std::size_t a, std::size_t b) { return rects[a].left() < rects[b].left(); });
    // Levels of open groups below each group with members: each level adds a padding.
    std::vector<int> framed(tree.groups.size(), 0), levels(tree.groups.size(), 0);
    for (std::size_t u = 0; u < units; ++u)
        for (int g = owner[u]; g > 0; g = tree.groups[static_cast<std::size_t>(g)].parent)
            framed[static_cast<std::size_t>(g)] = 1;
    for (std::size_t g = tree.groups.size(); g-- > 1;) // children come after their parents
        if (framed[g] && tree.groups[g].parent > 0)
            levels[static_cast<std::size_t>(tree.groups[g].parent)] =
                std::max(levels[static_cast<std::size_t>(tree.groups[g].parent)], levels[g] + 1);

    const QFontMetricsF metrics(labelFont());
    std::vector<GroupFrame> frames;
    std::vector<QRectF> labels; // placed so far, outer groups first
    for (std::size_t g = 1; g < tree.groups.size(); ++g) {
        if (!framed[g] || !shownOpen(tree, collapsed, static_cast<int>(g)))
            continue;
        const int group = static_cast<int>(g);
        const double pad = kPad * (1 + levels[g]);
        const QString label =
            QString::fromStdString(tree.groups[g].label.empty() ? tree.groups[g].path : tree.groups[g].label);
        for (const auto& [column, rows] : columns) {
            QPainterPath outline;
            outline.setFillRule(Qt::WindingFill);
            QRectF first; // the first piece of the first row: the label goes above its members
            double firstRowTop = 0;
            for (auto it = rows.begin(); it != rows.end(); ++it) {
                const Row& row = it->second;
                const Row* above = it == rows.begin() ? nullptr : &std::prev(it)->second;
                const Row* below = std::next(it) == rows.end() ? nullptr : &std::next(it)->second;
                auto heldIn = [&](const Row* r) {
                    return r && std::any_of(r->units.begin(), r->units.end(), [&](std::size_t u) {
                               return holds(group, u);
                           });
                };
                const bool continuesAbove = heldIn(above), continuesBelow = heldIn(below);
                const bool starts = outline.isEmpty();
                // Along the layers: half way to the next row where the group goes on, else the padding (and the
                // label's room above its first row), but never past half way to a neighbouring row.
                const double halfUp = above ? (row.top - above->bottom) / 2 : pad + kLabelRoom;
                const double halfDown = below ? (below->top - row.bottom) / 2 : pad;
                const double top =
                    row.top - (continuesAbove ? halfUp : std::min(halfUp, pad + (starts ? kLabelRoom : 0)));
                const double bottom = row.bottom + (continuesBelow ? halfDown : std::min(halfDown, pad));
                // Across: one piece per run of members, reaching at most half way to the box of another group.
                for (std::size_t k = 0; k < row.units.size();) {
                    if (!holds(group, row.units[k])) {
                        ++k;
                        continue;
                    }
                    const std::size_t begin = k;
                    double right = rects[row.units[k]].right();
                    while (k < row.units.size() && holds(group, row.units[k]))
                        right = std::max(right, rects[row.units[k++]].right());
                    const double left = rects[row.units[begin]].left();
                    const double leftRoom = begin > 0 ? (left - rects[row.units[begin - 1]].right()) / 2 : pad;
                    const double rightRoom = k < row.units.size() ? (rects[row.units[k]].left() - right) / 2 : pad;
                    const QRectF piece(QPointF(left - std::min(pad, std::max(leftRoom, 0.0)), top),
                                       QPointF(right + std::min(pad, std::max(rightRoom, 0.0)), bottom));
                    outline.addRect(piece);
                    if (first.isNull()) {
                        first = piece;
                        firstRowTop = row.top;
                    }
                }
            }
            if (outline.isEmpty())
                continue;
            outline = outline.simplified();
            // The label above the first members, right of the labels of outer frames that start there too.
            const double natural = metrics.horizontalAdvance(label) + 2;
            QRectF labelRect(first.left() + kPad / 2, first.top() + 1, natural,
                             std::min(kLabelRoom - 2, firstRowTop - first.top() - 2));
            for (bool moved = true; moved;) {
                moved = false;
                for (const QRectF& placed : labels)
                    if (placed.intersects(labelRect)) {
                        labelRect.moveLeft(placed.right() + kLabelGap);
                        moved = true;
                    }
            }
            labelRect.setRight(std::min(labelRect.right(), first.right() - kPad / 2));
            if (labelRect.width() < std::min(natural, 2 * metrics.averageCharWidth()) || labelRect.height() < 6)
                labelRect = QRectF();
            else
                labels.push_back(labelRect);
            if (across) {
                outline = QTransform(0, 1, 1, 0, 0, 0).map(outline);
                labelRect = labelRect.isNull() ? labelRect : transposed(labelRect);
            }
            frames.push_back({group, tree.groups[g].depth, outline.boundingRect(), outline, labelRect, label});
        }
    }
    return frames;
}

GroupFrameItem::GroupFrameItem(GroupFrame frame) : m_frame(std::move(frame))
{
    setZValue(-2 + 1e-3 * std::min(m_frame.depth, 900)); // behind edges and boxes
    setToolTip(m_frame.label);
}

QRectF GroupFrameItem::boundingRect() const
{
    return m_frame.rect.adjusted(-1, -1, 1, 1);
}

void GroupFrameItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    painter->setPen(QPen(QColor(0x4a, 0x5d, 0x80, 150), 1.2));
    painter->setBrush(QColor(0x4a, 0x5d, 0x80, 14)); // nested frames darken, so depth shows
    painter->drawPath(m_frame.outline);
    const QRectF& line = m_frame.labelRect;
    if (line.isEmpty())
        return;
    const double lod = std::max(1e-3, option->levelOfDetailFromTransform(painter->worldTransform()));
    QFont font = painter->font();
    font.setBold(true);
    // 11 px on screen, but no taller than the room left above the members: labels that start on one row sit side
    // by side there, and larger ones would print over each other or over the boxes.
    font.setPixelSize(std::max(1, static_cast<int>(std::min(kLabelPixels / lod, line.height()))));
    painter->setFont(font);
    painter->setPen(QColor(0x2c, 0x3a, 0x55));
    const QFontMetricsF metrics(font);
    painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(m_frame.label, Qt::ElideRight, line.width()));
}

} // namespace costscope
