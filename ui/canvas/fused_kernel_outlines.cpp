// SPDX-License-Identifier: MIT
#include "canvas/fused_kernel_outlines.h"

#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "canvas/overlay_model.h"

#include <QBrush>
#include <QFont>
#include <QPen>

#include <set>

namespace costscope {

namespace {
constexpr qreal kMargin = 10;
const QColor kOutlineColor(200, 90, 0);
} // namespace

std::vector<FusedKernelOutline> fusedKernelsOf(const RunComparison& run)
{
    std::vector<FusedKernelOutline> out;
    for (const NodeComparison& n : run.nodes) {
        if (n.fused.empty() || !run.graph)
            continue;
        FusedKernelOutline k{QString::fromStdString(n.label), n.measuredNs, {}};
        for (NodeId id : n.fused)
            if (auto pos = run.graph->indexOf(id))
                k.nodes.push_back(*pos);
        k.nodes.push_back(n.nodeIndex);
        out.push_back(std::move(k));
    }
    return out;
}

FusedKernelOutlineItem::FusedKernelOutlineItem(const QRectF& rect, const QString& label)
    : QGraphicsRectItem(rect), m_label(label)
{
    setPen(QPen(kOutlineColor, 2, Qt::DashLine));
    setBrush(QColor(kOutlineColor.red(), kOutlineColor.green(), kOutlineColor.blue(), 18));
    setZValue(-1); // behind the node boxes and edges
    setToolTip(label);
    auto* text = new QGraphicsSimpleTextItem(label, this);
    QFont font = text->font();
    font.setBold(true);
    text->setFont(font);
    text->setBrush(kOutlineColor);
    text->setPos(rect.left(), rect.top() - text->boundingRect().height());
}

FusedKernelOutlines::FusedKernelOutlines(GraphScene* scene) : QObject(scene), m_scene(scene)
{
    setObjectName(QStringLiteral("fusedKernelOutlines"));
    connect(scene, &GraphScene::layoutFinished, this, &FusedKernelOutlines::redraw);
}

FusedKernelOutlines* FusedKernelOutlines::of(GraphScene* scene)
{
    if (auto* existing =
            scene->findChild<FusedKernelOutlines*>(QStringLiteral("fusedKernelOutlines"), Qt::FindDirectChildrenOnly))
        return existing;
    return new FusedKernelOutlines(scene);
}

void FusedKernelOutlines::setKernels(std::vector<FusedKernelOutline> kernels)
{
    m_kernels = std::move(kernels);
    redraw();
}

std::vector<FusedKernelOutlineItem*> FusedKernelOutlines::items() const
{
    std::vector<FusedKernelOutlineItem*> out;
    for (QGraphicsItem* item : m_scene->items(Qt::AscendingOrder))
        if (item->type() == FusedKernelOutlineItem::Type)
            out.push_back(static_cast<FusedKernelOutlineItem*>(item));
    return out;
}

void FusedKernelOutlines::redraw()
{
    for (FusedKernelOutlineItem* item : items())
        delete item;
    const std::size_t nodeCount = m_scene->graph() ? m_scene->graph()->nodes.size() : 0;
    for (const FusedKernelOutline& k : m_kernels) {
        std::set<NodeItem*> boxes;
        for (std::size_t pos : k.nodes)
            if (pos < nodeCount)
                if (NodeItem* box = m_scene->itemForNode(pos))
                    boxes.insert(box);
        if (boxes.empty())
            continue;
        QRectF rect;
        for (NodeItem* box : boxes)
            rect = rect.united(box->sceneBoundingRect());
        const QString label = QStringLiteral("%1 · %2").arg(k.kernel, formatNs(k.measuredNs));
        m_scene->addItem(new FusedKernelOutlineItem(rect.adjusted(-kMargin, -kMargin, kMargin, kMargin), label));
    }
}

} // namespace costscope
