// SPDX-License-Identifier: MIT
#pragma once
#include "ir/graph.h"
#include <QObject>
#include <vector>

namespace costscope {

class GraphDocument;

// The edits a user makes, by node id, each one undoable step on the document. A refused edit changes nothing and
// is reported through GraphDocument::editFailed with the node and the reason.
class GraphEditor : public QObject {
    Q_OBJECT
public:
    explicit GraphEditor(GraphDocument* doc, QObject* parent = nullptr);

    // Adds an op from the palette (Inputs and Params get a fresh name and a default shape); with `after`, the new
    // node reads that node's output. Returns the new id, or -1.
    NodeId addOp(OpKind kind, std::optional<NodeId> after = std::nullopt);
    bool remove(const std::vector<NodeId>& ids);
    bool rename(NodeId id, const QString& name);
    bool setAttribute(NodeId id, const QString& key, const QString& text);
    bool setShape(NodeId id, const QString& text);
    bool setOutput(NodeId id, bool output);
    bool connectNodes(NodeId from, NodeId to, int slot);
    bool disconnectInput(NodeId to, int slot);
    // Deletes edges (producer, consumer): every input of the consumer that reads the producer.
    bool removeEdges(const std::vector<std::pair<NodeId, NodeId>>& edges);
    bool group(const std::vector<NodeId>& ids, const QString& name);
    // One fused node for the set; returns its id, or -1.
    NodeId fuse(const std::vector<NodeId>& ids);

    // The clipboard holds nodes as RLX HIR JSON (also as text, so they paste into an editor and back).
    void copy(const std::vector<NodeId>& ids) const;
    bool canPaste() const;
    bool paste();

signals:
    // New nodes (added, pasted, fused): the window selects them once they are drawn.
    void nodesCreated(const std::vector<NodeId>& ids);

private:
    bool apply(const Result<Graph>& edited, const QString& text);
    GraphDocument* m_doc;
};

} // namespace costscope
