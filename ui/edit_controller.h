// SPDX-License-Identifier: MIT
#pragma once
// Editing the open graph: the Edit menu, the Ops palette and the History dock, and the canvas's gestures (ports,
// drops, a node's context menu) and the property panel's edits turned into document edits; the selection kept
// across an edit; and what the last edit did to the cost.
#include "ir/graph.h"
#include <QObject>
#include <QPointF>
#include <QString>
#include <optional>
#include <vector>

class QMainWindow;
class QMenu;

namespace costscope {

class DocumentController;
class GraphEditor;
class GraphPresenter;
class OpPalette;

class EditController : public QObject {
    Q_OBJECT
public:
    // Adds the Ops and History docks (left) and the Edit menu (after File) to `window`.
    EditController(DocumentController* documents, GraphPresenter* presenter, QMainWindow* window);

    GraphEditor* editor() const { return m_editor; }
    OpPalette* opPalette() const { return m_palette; }
    // "Fuse 4 nodes: Cpu 1.20 ms → 0.91 ms" after the costs of the last edit arrived; empty before.
    QString lastEditCostChange() const { return m_lastEditCostChange; }

private:
    void buildDocks();
    void buildEditMenu();
    void onGraphEdited(std::shared_ptr<const Graph> graph);
    void onCostsShown();
    void reselectAfterLayout();
    void onNodeContextMenu(NodeId id, QMenu* menu);
    void onOpDropped(const QByteArray& opName, QPointF scenePos);
    void renameSelected();
    void groupSelected();
    std::vector<NodeId> selected() const;
    // An op can be added, or pasted, with no graph open: a new empty one is made first.
    void ensureGraph();

    DocumentController* m_documents;
    GraphPresenter* m_presenter;
    QMainWindow* m_window;
    GraphEditor* m_editor;
    OpPalette* m_palette;
    std::vector<NodeId> m_reselect;          // ids to select once the edited graph is drawn
    std::optional<double> m_totalBeforeEdit; // the shown total when the last edit was made
    QString m_lastEditText;
    QString m_lastEditCostChange;
};

} // namespace costscope
