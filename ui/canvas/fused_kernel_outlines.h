// SPDX-License-Identifier: MIT
#pragma once
// The fused plan on the canvas: the nodes a backend ran as one kernel, outlined together and labelled with the
// kernel's name and measured time (what `costscope-cli run` prints as "one kernel with nodes ...").

#include "run_comparison.h"

#include <QGraphicsRectItem>
#include <QObject>

#include <vector>

namespace costscope {

class GraphScene;

struct FusedKernelOutline {
    QString kernel;
    double measuredNs = 0;
    std::vector<std::size_t> nodes; // graph positions of the kernel's nodes
};

// The kernels of a run that ran several nodes at once (NodeComparison::fused).
std::vector<FusedKernelOutline> fusedKernelsOf(const RunComparison& run);

// One outline: a dashed box around the kernel's node boxes, its label a child item.
class FusedKernelOutlineItem : public QGraphicsRectItem {
public:
    enum { Type = UserType + 41 };
    FusedKernelOutlineItem(const QRectF& rect, const QString& label);
    int type() const override { return Type; }
    QString label() const { return m_label; }

private:
    QString m_label;
};

// The outlines of one scene, kept as a child of it and drawn again after every layout (a layout clears the scene).
class FusedKernelOutlines : public QObject {
    Q_OBJECT
public:
    // The scene's outlines, made on first use.
    static FusedKernelOutlines* of(GraphScene* scene);
    // Positions refer to the scene's current graph; an empty list removes the outlines.
    void setKernels(std::vector<FusedKernelOutline> kernels);
    const std::vector<FusedKernelOutline>& kernels() const { return m_kernels; }
    // The outlines drawn now (kernels whose nodes are all hidden have none).
    std::vector<FusedKernelOutlineItem*> items() const;

private:
    explicit FusedKernelOutlines(GraphScene* scene);
    void redraw();

    GraphScene* m_scene;
    std::vector<FusedKernelOutline> m_kernels;
};

} // namespace costscope
