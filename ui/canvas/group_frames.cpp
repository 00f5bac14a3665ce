// SPDX-License-Identifier: MIT
#include "canvas/group_frames.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <map>

namespace costscope {

namespace {

constexpr double kPad = 8;        // between a frame and what it holds
constexpr double kLabelRoom = 16; // above the members, for the label
constexpr double kRadius = 10;
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

} // namespace

std::vector<GroupFrame> groupFrames(const GroupTree& tree, const ViewGraph& view, const std::vector<bool>& collapsed,
                                    const std::vector<QRectF>& unitRects, const std::vector<int>& unitColumns)
{
    // Per group, per column: the area its members cover so far.
    std::vector<std::map<int, QRectF>> covered(tree.groups.size());
    for (std::size_t u = 0; u < view.units.size() && u < unitRects.size(); ++u) {
        const auto& unit = view.units[u];
        const int column = u < unitColumns.size() ? unitColumns[u] : 0;
        // A node belongs to its innermost group; a collapsed group's box to the group above it.
        int g = unit.isGroup ? tree.groups[static_cast<std::size_t>(unit.group)].parent
                             : (unit.node < tree.groupOfNode.size() ? tree.groupOfNode[unit.node] : 0);
        if (g > 0) {
            QRectF& r = covered[static_cast<std::size_t>(g)][column];
            r = r.isNull() ? unitRects[u] : r.united(unitRects[u]);
        }
    }
    std::vector<GroupFrame> frames;
    // Children come after their parents: from the end, a group's frames are final before its parent takes them in.
    for (std::size_t g = tree.groups.size(); g-- > 1;) {
        const auto& group = tree.groups[g];
        if (covered[g].empty() || !shownOpen(tree, collapsed, static_cast<int>(g)))
            continue;
        const QString label = QString::fromStdString(group.label.empty() ? group.path : group.label);
        for (const auto& [column, area] : covered[g]) {
            const QRectF rect = area.adjusted(-kPad, -kPad - kLabelRoom, kPad, kPad);
            frames.push_back({static_cast<int>(g), group.depth, rect, label});
            if (group.parent > 0) {
                QRectF& r = covered[static_cast<std::size_t>(group.parent)][column];
                r = r.isNull() ? rect : r.united(rect);
            }
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
    const QRectF& r = m_frame.rect;
    painter->setPen(QPen(QColor(0x4a, 0x5d, 0x80, 150), 1.2));
    painter->setBrush(QColor(0x4a, 0x5d, 0x80, 14)); // nested frames darken, so depth shows
    painter->drawRoundedRect(r, kRadius, kRadius);
    const double lod = std::max(1e-3, option->levelOfDetailFromTransform(painter->worldTransform()));
    QFont font = painter->font();
    font.setBold(true);
    // 11 px on screen, but no taller than the room a frame and its parent's leave above the members: nested frames
    // that start on one row stack their labels there, and larger ones would print over each other.
    font.setPixelSize(static_cast<int>(std::clamp(kLabelPixels / lod, kLabelRoom - 4, kLabelRoom + kPad - 4)));
    painter->setFont(font);
    painter->setPen(QColor(0x2c, 0x3a, 0x55));
    const QFontMetricsF metrics(font);
    const QRectF line(r.left() + kRadius, r.top() + 2, r.width() - 2 * kRadius, metrics.height());
    painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                      metrics.elidedText(m_frame.label, Qt::ElideRight, line.width()));
}

} // namespace costscope
