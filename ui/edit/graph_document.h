// SPDX-License-Identifier: MIT
#pragma once
#include "ir/graph.h"
#include <QObject>
#include <QString>
#include <memory>

class QUndoStack;

namespace costscope {

struct CostscopeDocument;

// The graph being edited: the one truth the canvas, panels and costs show. Every edit is a QUndoCommand holding
// the graph before and after (graphs share their tensor data, so a snapshot costs the node list only), which
// makes undo exact: undoing every edit gives back the very graph that was opened.
class GraphDocument : public QObject {
    Q_OBJECT
public:
    explicit GraphDocument(QObject* parent = nullptr);

    std::shared_ptr<const Graph> graph() const { return m_graph; }
    QUndoStack* undoStack() const { return m_stack; }
    // Where Save writes; empty for a new graph (and for ONNX files, which Costscope reads but does not write).
    QString path() const { return m_path; }
    QString displayName() const;
    bool isModified() const;
    // What the last graph change was ("Fuse 4 node(s)", "Undo Rename to x"), for messages about it.
    QString lastChange() const { return m_lastChange; }

    // A graph opened or created: the history starts anew. `modified` marks a restored recovery copy unsaved.
    void reset(std::shared_ptr<const Graph> graph, const QString& path, bool modified = false);
    // Pushes an edit whose result is `edited` (or reports its error through editFailed and changes nothing).
    bool apply(const Result<Graph>& edited, const QString& text);

    // Writes the graph atomically: .costscope as a document (with `session`'s bindings, devices and model),
    // anything else as RLX HIR JSON. On success the path becomes the document's and it is clean.
    Result<bool> saveAs(const QString& path, const CostscopeDocument& session);

signals:
    // After every edit, undo and redo (not after reset: the window treats an opened graph as new).
    void graphChanged(std::shared_ptr<const Graph> graph);
    void editFailed(const QString& message);
    void modifiedChanged(bool modified);

private:
    friend class GraphSnapshotCommand;
    void setGraph(std::shared_ptr<const Graph> graph, const QString& change);

    std::shared_ptr<const Graph> m_graph;
    QUndoStack* m_stack;
    QString m_path;
    bool m_forcedModified = false;
    QString m_lastChange;
};

} // namespace costscope
