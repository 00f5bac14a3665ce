// SPDX-License-Identifier: MIT
#pragma once
// An expanded scope group drawn as a labelled frame around its members (Model Explorer and TensorBoard do the
// same): opening "h.3" shows its attention and MLP inside a frame that says "h.3", nested frames for nested open
// groups. In a drawing folded into columns a group that continues in the next column gets a frame there too.
//
// A frame follows its members row by row (layer by layer) rather than taking their bounding rectangle: the layout
// interleaves consecutive blocks (the weights of one block's first convolutions sink into the rows where the block
// before it ends), and rectangles of sibling groups overlapped there. Row by row, a frame is cut where a box of
// another group stands between its members, and reaches at most half way to that box or to the next row, so that
// the frames of sibling groups never overlap and an inner frame stays inside its parent's.
#include "layout/group_tree.h"
#include "layout/layered_layout.h"

#include <QGraphicsItem>
#include <QPainterPath>
#include <QRectF>
#include <QString>

#include <vector>

namespace costscope {

struct GroupFrame {
    int group = 0;
    int depth = 1;        // the group's: an inner frame lies over its parent's, so that a click finds the innermost
    QRectF rect;          // the outline's bounds, scene coordinates
    QPainterPath outline; // scene coordinates; one piece per run of members that another group's box interrupts
    QRectF labelRect;     // where the label is written (empty where there is no room for it)
    QString label;
};

// The frames of every group open in `view` (not collapsed, no collapsed ancestor, not the root) that shows members:
// one per column its members occupy, around their boxes (`unitRects`, per view unit) and those of its open
// subgroups, with room above for the label. `unitColumns` and `unitLayers` are per unit (empty: one column; one
// layer per unit); layers run along `direction`.
std::vector<GroupFrame> groupFrames(const GroupTree& tree, const ViewGraph& view, const std::vector<bool>& collapsed,
                                    const std::vector<QRectF>& unitRects, const std::vector<int>& unitColumns,
                                    const std::vector<int>& unitLayers,
                                    layout::Direction direction = layout::Direction::TopToBottom);

class GroupFrameItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };
    explicit GroupFrameItem(GroupFrame frame);
    int type() const override { return Type; }
    const GroupFrame& frame() const { return m_frame; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override { return m_frame.outline; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    GroupFrame m_frame;
};

} // namespace costscope
