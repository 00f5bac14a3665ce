// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/cost_model.h"
#include "ir/graph.h"
#include <QTreeWidget>

namespace costscope {

// Everything about the selected node: identity, every attribute, input and output shapes, and its cost.
class PropertyPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit PropertyPanel(QWidget* parent = nullptr);
    void showNode(const Graph* graph, int nodeIndex, const GraphCost* cost);
    // The value shown for a key under a section ("Attributes", "kernel_size"), or empty; used by tests.
    QString valueOf(const QString& section, const QString& key) const;
};

} // namespace costscope
