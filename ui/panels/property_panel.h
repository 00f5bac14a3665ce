// SPDX-License-Identifier: MIT
#pragma once
#include "analysis/cost_model.h"
#include "ir/graph.h"
#include "layout/group_tree.h"
#include <QTreeWidget>
#include <optional>

namespace costscope {

// Everything about the selected node (or group): identity, every attribute, input and output shapes, and its cost. The name,
// every attribute, a leaf's shape and "graph output" are edited in place (double-click the value); "add attribute"
// takes "key = value". The panel only asks for edits: the window applies them to the document.
class PropertyPanel : public QTreeWidget {
    Q_OBJECT
public:
    enum class Edit { Name = 1, Attribute, Shape, Output, NewAttribute };
    explicit PropertyPanel(QWidget* parent = nullptr);
    // `problem`: why the node is invalid, shown first and in red; empty when it is fine.
    void showNode(const Graph* graph, std::optional<NodeId> id, const GraphCost* cost, const QString& problem = {});
    // The node shown (nullopt: none, or a group).
    std::optional<NodeId> shownNode() const { return m_node; }
    // A group (a collapsed box, or a scope): its members, their summed cost, the tensors that cross its boundary
    // and the sync points inside. Nothing in it is edited here.
    void showGroup(const Graph& graph, const GroupTree& tree, int group, const GraphCost* cost);
    // The row that edits `what` (with the attribute's key), or nullptr; tests type into it.
    QTreeWidgetItem* editRow(Edit what, const QString& key = {}) const;

    // The value shown for a key under a section ("Attributes", "kernel_size"), or empty; used by tests.
    QString valueOf(const QString& section, const QString& key) const;

signals:
    void renameRequested(costscope::NodeId id, const QString& name);
    void attributeEdited(costscope::NodeId id, const QString& key, const QString& text);
    void shapeEdited(costscope::NodeId id, const QString& text);
    void outputToggled(costscope::NodeId id, bool output);

private:
    void onItemChanged(QTreeWidgetItem* item, int column);
    std::optional<NodeId> m_node;
};

} // namespace costscope
