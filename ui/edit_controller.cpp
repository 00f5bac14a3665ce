// SPDX-License-Identifier: MIT
#include "edit_controller.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "document_controller.h"
#include "edit/graph_document.h"
#include "edit/graph_editor.h"
#include "edit/op_palette.h"
#include "graph_presenter.h"
#include "panels/property_panel.h"
#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QUndoStack>
#include <QUndoView>

namespace costscope {

EditController::EditController(DocumentController* documents, GraphPresenter* presenter, QMainWindow* window)
    : QObject(window), m_documents(documents), m_presenter(presenter), m_window(window),
      m_editor(new GraphEditor(documents->document(), this)), m_palette(new OpPalette(window))
{
    buildDocks();
    GraphDocument* doc = documents->document();
    const GraphViews& views = presenter->views();
    connect(doc, &GraphDocument::graphChanged, this, &EditController::onGraphEdited);
    connect(doc, &GraphDocument::editFailed, this, [this](const QString& message) {
        m_window->statusBar()->showMessage(tr("Edit refused: %1").arg(message), 10000);
    });
    connect(m_editor, &GraphEditor::nodesCreated, this, [this](const std::vector<NodeId>& ids) { m_reselect = ids; });
    connect(presenter, &GraphPresenter::layoutReady, this, &EditController::reselectAfterLayout);
    connect(presenter->feed(), &OpenGraphFeed::costsUpdated, this, &EditController::onCostsShown);
    connect(m_palette, &OpPalette::opActivated, this, [this](OpKind kind) {
        ensureGraph();
        const auto ids = selected();
        m_editor->addOp(kind, ids.size() == 1 ? std::optional<NodeId>(ids.front()) : std::nullopt);
    });
    connect(views.canvas, &CanvasView::opDropped, this, &EditController::onOpDropped);
    connect(views.scene, &GraphScene::connectRequested, m_editor, &GraphEditor::connectNodes);
    connect(views.scene, &GraphScene::nodeContextMenu, this, &EditController::onNodeContextMenu);
    connect(views.properties, &PropertyPanel::renameRequested, m_editor, &GraphEditor::rename);
    connect(views.properties, &PropertyPanel::attributeEdited, m_editor, &GraphEditor::setAttribute);
    connect(views.properties, &PropertyPanel::shapeEdited, m_editor, &GraphEditor::setShape);
    connect(views.properties, &PropertyPanel::outputToggled, m_editor, &GraphEditor::setOutput);
    buildEditMenu();
}

void EditController::buildDocks()
{
    auto* paletteDock = new QDockWidget(tr("Ops"), m_window);
    paletteDock->setObjectName(QStringLiteral("opPaletteDock"));
    paletteDock->setWidget(m_palette);
    m_window->addDockWidget(Qt::LeftDockWidgetArea, paletteDock);
    m_window->resizeDocks({paletteDock}, {190}, Qt::Horizontal); // the canvas keeps the width
    auto* history = new QUndoView(m_documents->document()->undoStack(), m_window);
    history->setEmptyLabel(tr("<opened>"));
    auto* historyDock = new QDockWidget(tr("History"), m_window);
    historyDock->setObjectName(QStringLiteral("historyDock"));
    historyDock->setWidget(history);
    m_window->addDockWidget(Qt::LeftDockWidgetArea, historyDock);
    m_window->tabifyDockWidget(paletteDock, historyDock);
    paletteDock->raise();
}

void EditController::buildEditMenu()
{
    QMenuBar* menus = m_window->menuBar();
    QMenu* edit = new QMenu(tr("&Edit"), m_window);
    menus->insertMenu(menus->actions().value(1), edit);
    QUndoStack* undoStack = m_documents->document()->undoStack();
    QAction* undo = undoStack->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undoStack->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addActions({undo, redo});
    edit->addSeparator();
    auto add = [&](const QString& text, const QKeySequence& key, const QString& name, auto slot) {
        QAction* a = edit->addAction(text, key, this, slot);
        a->setObjectName(name);
        return a;
    };
    add(tr("&Copy"), QKeySequence::Copy, QStringLiteral("actionCopy"), [this] { m_editor->copy(selected()); });
    add(tr("&Paste"), QKeySequence::Paste, QStringLiteral("actionPaste"), [this] {
        ensureGraph();
        m_editor->paste();
    });
    add(tr("&Delete"), QKeySequence::Delete, QStringLiteral("actionDelete"), [this] {
        if (const auto nodes = selected(); !nodes.empty()) {
            m_editor->remove(nodes);
            return;
        }
        m_editor->removeEdges(m_presenter->views().scene->selectedEdges());
    });
    edit->addSeparator();
    add(tr("&Rename…"), QKeySequence(Qt::Key_F2), QStringLiteral("actionRename"), [this] { renameSelected(); });
    add(tr("&Group Selection…"), QKeySequence(Qt::CTRL | Qt::Key_G), QStringLiteral("actionGroup"),
        [this] { groupSelected(); });
    add(tr("&Fuse Selection"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), QStringLiteral("actionFuse"),
        [this] { m_editor->fuse(selected()); });
    edit->addSeparator();
    add(tr("Add &Op…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), QStringLiteral("actionAddOp"), [this] {
        if (auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("opPaletteDock"))) {
            dock->show();
            dock->raise();
        }
        m_palette->setFocus();
    });
    for (const char* name : {"opPaletteDock", "historyDock"})
        if (auto* dock = m_window->findChild<QDockWidget*>(QLatin1String(name)))
            edit->addAction(dock->toggleViewAction());
}

std::vector<NodeId> EditController::selected() const
{
    return m_presenter->selectedNodeIds();
}

void EditController::ensureGraph()
{
    if (!m_presenter->graph())
        m_documents->newGraph();
}

void EditController::onGraphEdited(std::shared_ptr<const Graph> graph)
{
    if (m_reselect.empty())
        m_reselect = selected();
    if (const GraphCost* cost = m_presenter->overlay().cost()) {
        m_totalBeforeEdit = cost->totalNs;
        m_lastEditText = m_documents->document()->lastChange();
    }
    m_presenter->showGraph(std::move(graph), false);
}

void EditController::onCostsShown()
{
    const GraphCost* cost = m_presenter->overlay().cost();
    if (!m_totalBeforeEdit || !cost)
        return;
    m_lastEditCostChange = tr("%1: %2 %3 → %4")
                               .arg(m_lastEditText, QString::fromStdString(cost->profile), formatNs(*m_totalBeforeEdit),
                                    formatNs(cost->totalNs));
    m_window->statusBar()->showMessage(m_lastEditCostChange, 10000);
    m_totalBeforeEdit.reset();
}

void EditController::reselectAfterLayout()
{
    const auto graph = m_presenter->graph();
    if (m_reselect.empty() || !graph)
        return;
    GraphScene* scene = m_presenter->views().scene;
    const std::vector<NodeId> ids = std::exchange(m_reselect, {});
    bool first = true;
    for (NodeId id : ids) {
        NodeItem* item = scene->itemForNodeId(id);
        if (!item)
            continue;
        if (first) {
            scene->selectNodeId(id);
            m_presenter->views().canvas->ensureVisible(item);
            first = false;
        } else {
            item->setSelected(true);
        }
    }
}

void EditController::renameSelected()
{
    const auto ids = selected();
    if (ids.size() != 1)
        return;
    bool ok = false;
    const QString name =
        QInputDialog::getText(m_window, tr("Rename"), tr("Name:"), QLineEdit::Normal,
                              QString::fromStdString(m_presenter->graph()->find(ids.front())->displayName()), &ok);
    if (ok)
        m_editor->rename(ids.front(), name);
}

void EditController::groupSelected()
{
    const auto ids = selected();
    if (ids.empty())
        return;
    bool ok = false;
    const QString name =
        QInputDialog::getText(m_window, tr("Group selection"), tr("Group path (a/b/c; empty ungroups):"),
                              QLineEdit::Normal, QStringLiteral("group"), &ok);
    if (ok)
        m_editor->group(ids, name);
}

void EditController::onNodeContextMenu(NodeId id, QMenu* menu)
{
    const auto graph = m_presenter->graph();
    const Node* found = graph ? graph->find(id) : nullptr;
    if (!found)
        return; // the drawing on show is of the graph before an edit that removed the node
    const Node& n = *found;
    menu->addAction(tr("Rename…"), this, &EditController::renameSelected);
    menu->addAction(tr("Delete"), this, [this] { m_editor->remove(selected()); });
    menu->addAction(tr("Copy"), this, [this] { m_editor->copy(selected()); });
    const bool output = graph->isOutput(id);
    menu->addAction(output ? tr("Unmark as graph output") : tr("Mark as graph output"), this,
                    [this, id, output] { m_editor->setOutput(id, !output); });
    for (std::size_t slot = 0; slot < n.inputs.size(); ++slot) {
        const Node* src = graph->find(n.inputs[slot]);
        const QString from =
            src ? QString::fromStdString(src->displayName().empty() ? src->op.label() : src->displayName())
                : QStringLiteral("#%1").arg(n.inputs[slot]);
        menu->addAction(tr("Disconnect input %1 (%2)").arg(slot).arg(from), this,
                        [this, id, slot] { m_editor->disconnectInput(id, static_cast<int>(slot)); });
    }
    if (selected().size() > 1) {
        menu->addAction(tr("Fuse selection"), this, [this] { m_editor->fuse(selected()); });
        menu->addAction(tr("Group selection…"), this, &EditController::groupSelected);
    }
}

void EditController::onOpDropped(const QByteArray& opName, QPointF scenePos)
{
    const auto kind = opKindFromName(opName.toStdString());
    if (!kind)
        return;
    ensureGraph();
    m_editor->addOp(*kind, m_presenter->views().scene->nodeAt(scenePos));
}

} // namespace costscope
