// SPDX-License-Identifier: MIT
#pragma once
// An expanded scope group drawn as a labelled rounded frame around its members (Model Explorer and TensorBoard
// do the same): opening "h.3" shows its attention and MLP inside a box that says "h.3", nested frames for nested
// open groups. In a drawing folded into columns a group that continues in the next column gets a frame there too.
#include "layout/group_tree.h"

#include <QGraphicsItem>
#include <QRectF>
#include <QString>

#include <vector>

namespace costscope {

struct GroupFrame {
    int group = 0;
    int depth = 1; // the group's: an inner frame lies over its parent's, so that a click finds the innermost
    QRectF rect;   // scene coordinates
    QString label;
};

// The frames of every group open in `view` (not collapsed, no collapsed ancestor, not the root) that shows members:
// one per column its members occupy, around their boxes (`unitRects`, per view unit) and the frames of its open
// subgroups, with room above for the label. `unitColumns` is per unit (empty: one column).
std::vector<GroupFrame> groupFrames(const GroupTree& tree, const ViewGraph& view, const std::vector<bool>& collapsed,
                                    const std::vector<QRectF>& unitRects, const std::vector<int>& unitColumns);

class GroupFrameItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };
    explicit GroupFrameItem(GroupFrame frame);
    int type() const override { return Type; }
    const GroupFrame& frame() const { return m_frame; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    GroupFrame m_frame;
};

} // namespace costscope
