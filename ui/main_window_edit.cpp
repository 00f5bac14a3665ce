// SPDX-License-Identifier: MIT
// The main window's editing: documents (new, templates, save, close prompt, recovery), the Edit menu, the op
// palette, the history view, and the canvas gestures (ports, drops, context menu) turned into document edits.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "edit/autosaver.h"
#include "edit/graph_document.h"
#include "edit/graph_editor.h"
#include "edit/op_palette.h"
#include "formats/costscope_document.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include "panels/property_panel.h"
#include "session_view.h"
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QUndoStack>
#include <QUndoView>

namespace costscope {

void MainWindow::buildEditing()
{
    m_doc = new GraphDocument(this);
    m_editor = new GraphEditor(m_doc, this);
    m_autosaver = new Autosaver(m_doc, [this] { return sessionDocument(); }, this);
    m_askSaveChanges = [this](const QString& name) {
        return QMessageBox::question(this, tr("Unsaved changes"),
                                     tr("%1 has unsaved changes. Save them?").arg(name),
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };

    m_palette = new OpPalette(this);
    auto* paletteDock = new QDockWidget(tr("Ops"), this);
    paletteDock->setObjectName(QStringLiteral("opPaletteDock"));
    paletteDock->setWidget(m_palette);
    addDockWidget(Qt::LeftDockWidgetArea, paletteDock);
    resizeDocks({paletteDock}, {190}, Qt::Horizontal); // the canvas keeps the width
    auto* history = new QUndoView(m_doc->undoStack(), this);
    history->setEmptyLabel(tr("<opened>"));
    auto* historyDock = new QDockWidget(tr("History"), this);
    historyDock->setObjectName(QStringLiteral("historyDock"));
    historyDock->setWidget(history);
    addDockWidget(Qt::LeftDockWidgetArea, historyDock);
    tabifyDockWidget(paletteDock, historyDock);
    paletteDock->raise();

    connect(m_doc, &GraphDocument::graphChanged, this, &MainWindow::onGraphEdited);
    connect(m_doc, &GraphDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &GraphDocument::editFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Edit refused: %1").arg(message), 10000);
    });
    connect(m_editor, &GraphEditor::nodesCreated, this, [this](const std::vector<NodeId>& ids) { m_reselect = ids; });
    connect(this, &MainWindow::layoutReady, this, &MainWindow::reselectAfterLayout);
    connect(m_palette, &OpPalette::opActivated, this, [this](OpKind kind) {
        if (!m_graph)
            newGraph();
        const auto selected = selectedNodeIds();
        m_editor->addOp(kind, selected.size() == 1 ? std::optional<NodeId>(selected.front()) : std::nullopt);
    });
    connect(m_canvas, &CanvasView::opDropped, this, &MainWindow::onOpDropped);
    connect(m_scene, &GraphScene::connectRequested, this, [this](int from, int to, int slot) {
        m_editor->connectNodes(m_graph->nodes[static_cast<std::size_t>(from)].id,
                               m_graph->nodes[static_cast<std::size_t>(to)].id, slot);
    });
    connect(m_scene, &GraphScene::nodeContextMenu, this, &MainWindow::onNodeContextMenu);
    connect(m_properties, &PropertyPanel::renameRequested, m_editor, &GraphEditor::rename);
    connect(m_properties, &PropertyPanel::attributeEdited, m_editor, &GraphEditor::setAttribute);
    connect(m_properties, &PropertyPanel::shapeEdited, m_editor, &GraphEditor::setShape);
    connect(m_properties, &PropertyPanel::outputToggled, m_editor, &GraphEditor::setOutput);

    addEditFileActions();
    addCompareAction();
    buildEditMenu();
    updateTitle();
}

void MainWindow::addEditFileActions()
{
    QMenu* file = menuBar()->actions().constFirst()->menu();
    QAction* first = file->actions().constFirst();
    auto* newAction = new QAction(tr("&New"), this);
    newAction->setShortcut(QKeySequence::New);
    connect(newAction, &QAction::triggered, this, [this] { newGraph(); });
    file->insertAction(first, newAction);
    auto* templates = new QMenu(tr("New from &Template"), this);
    for (const edit::TemplateInfo& t : edit::graphTemplates()) {
        QAction* a = templates->addAction(QString::fromStdString(t.title), this, [this, id = t.id] { newGraph(id); });
        a->setToolTip(QString::fromStdString(t.description));
        a->setStatusTip(QString::fromStdString(t.description));
    }
    file->insertMenu(first, templates);
    file->insertSeparator(first);
    // Save and Save As go after Open and Open Recent.
    QAction* afterRecent = file->actions().value(file->actions().indexOf(first) + 2);
    auto* saveAction = new QAction(tr("&Save"), this);
    saveAction->setShortcut(QKeySequence::Save);
    connect(saveAction, &QAction::triggered, this, &MainWindow::save);
    auto* saveAsAction = new QAction(tr("Save &As…"), this);
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(saveAsAction, &QAction::triggered, this, [this] { saveAs(QString()); });
    file->insertActions(afterRecent, {saveAction, saveAsAction});
}

void MainWindow::buildEditMenu()
{
    QMenu* edit = new QMenu(tr("&Edit"), this);
    menuBar()->insertMenu(menuBar()->actions().value(1), edit);
    QAction* undo = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addActions({undo, redo});
    edit->addSeparator();
    auto add = [&](const QString& text, const QKeySequence& key, const QString& name, auto slot) {
        QAction* a = edit->addAction(text, key, this, slot);
        a->setObjectName(name);
        return a;
    };
    add(tr("&Copy"), QKeySequence::Copy, QStringLiteral("actionCopy"), [this] { m_editor->copy(selectedNodeIds()); });
    add(tr("&Paste"), QKeySequence::Paste, QStringLiteral("actionPaste"), [this] {
        if (!m_graph)
            newGraph();
        m_editor->paste();
    });
    add(tr("&Delete"), QKeySequence::Delete, QStringLiteral("actionDelete"), [this] {
        if (const auto nodes = selectedNodeIds(); !nodes.empty()) {
            m_editor->remove(nodes);
            return;
        }
        std::vector<std::pair<NodeId, NodeId>> edges;
        for (const auto& [from, to] : m_scene->selectedEdges())
            edges.emplace_back(m_graph->nodes[from].id, m_graph->nodes[to].id);
        m_editor->removeEdges(edges);
    });
    edit->addSeparator();
    add(tr("&Rename…"), QKeySequence(Qt::Key_F2), QStringLiteral("actionRename"), [this] { renameSelected(); });
    add(tr("&Group Selection…"), QKeySequence(Qt::CTRL | Qt::Key_G), QStringLiteral("actionGroup"), [this] { groupSelected(); });
    add(tr("&Fuse Selection"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), QStringLiteral("actionFuse"),
        [this] { m_editor->fuse(selectedNodeIds()); });
    edit->addSeparator();
    add(tr("Add &Op…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A), QStringLiteral("actionAddOp"), [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("opPaletteDock"))) {
            dock->show();
            dock->raise();
        }
        m_palette->setFocus();
    });
    for (const char* name : {"opPaletteDock", "historyDock"})
        if (auto* dock = findChild<QDockWidget*>(QLatin1String(name)))
            edit->addAction(dock->toggleViewAction());
}

void MainWindow::newGraph(edit::GraphTemplate t)
{
    if (!maybeSaveChanges())
        return;
    auto graph = std::make_shared<const Graph>(edit::makeTemplate(t));
    m_file.clear();
    m_doc->reset(graph, QString());
    showGraph(std::move(graph), true);
    statusBar()->showMessage(t == edit::GraphTemplate::Empty
                                 ? tr("New graph: drag ops from the Ops palette onto the canvas")
                                 : tr("New graph from a template"));
}

CostscopeDocument MainWindow::sessionDocument() const
{
    CostscopeDocument doc;
    storeSettings(m_settings->value(), doc);
    storeSessionView(*this, doc);
    return doc;
}

void MainWindow::applySession(const CostscopeDocument& session)
{
    m_settings->set(settingsFromDocument(session, m_settings->value()));
    if (restoreSessionView(*this, session)) {
        m_fitOnLayout = false;
        m_savedView = true;
    }
}

bool MainWindow::save()
{
    return saveAs(m_doc->path());
}

bool MainWindow::saveAs(const QString& requested)
{
    if (!m_graph)
        return false;
    QString path = requested;
    if (path.isEmpty()) {
        const QString suggested = QFileInfo(m_file).absolutePath() + QLatin1Char('/') + m_doc->displayName().section(QLatin1Char('.'), 0, 0) +
                                  QStringLiteral(".costscope");
        QString filter;
        path = QFileDialog::getSaveFileName(this, tr("Save graph"), suggested,
                                            tr("Costscope document (*.costscope);;RLX HIR JSON (*.json)"), &filter);
        if (path.isEmpty())
            return false;
        if (QFileInfo(path).suffix().isEmpty()) // the save switch refuses a name without a format
            path += filter.contains(QLatin1String("*.json")) ? QStringLiteral(".json") : QStringLiteral(".costscope");
    }
    auto saved = m_doc->saveAs(path, sessionDocument());
    if (!saved) {
        m_reportError(tr("Could not save %1").arg(QFileInfo(path).fileName()), QString::fromStdString(saved.error().message));
        return false;
    }
    m_file = path;
    addRecent(path);
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::maybeSaveChanges()
{
    if (!m_doc || !m_doc->isModified())
        return true;
    switch (m_askSaveChanges(m_doc->displayName())) {
    case QMessageBox::Save: return save();
    case QMessageBox::Discard: m_autosaver->discard(); return true;
    default: return false;
    }
}

void MainWindow::updateTitle()
{
    setWindowTitle(m_graph ? QStringLiteral("%1[*] — Costscope").arg(m_doc->displayName()) : QStringLiteral("Costscope"));
    setWindowModified(m_doc->isModified());
}

int MainWindow::offerRecovery(RecoveryPrompt prompt)
{
    if (!prompt)
        prompt = [this](const RecoveryCopy& copy) {
            const QString what = copy.originalPath.isEmpty() ? tr("an unsaved new graph") : copy.originalPath;
            return QMessageBox::question(this, tr("Restore unsaved changes?"),
                                         tr("Costscope did not close normally. Restore the changes to %1 saved at %2?")
                                             .arg(what, QLocale().toString(copy.savedAt.toLocalTime(), QLocale::ShortFormat)),
                                         QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
        };
    int restored = 0;
    for (const RecoveryCopy& copy : Autosaver::orphans()) {
        if (restored == 0 && prompt(copy)) {
            auto loaded = loadGraphFile(copy.copyPath.toStdString());
            if (!loaded) {
                m_reportError(tr("Could not restore"), QString::fromStdString(loaded.error().format(copy.copyPath.toStdString())));
            } else {
                auto graph = std::make_shared<const Graph>(std::move(loaded->graph));
                m_file = copy.originalPath;
                const bool writable = !copy.originalPath.isEmpty() &&
                                      formatFromPath(copy.originalPath.toStdString()) != GraphFormat::Onnx;
                m_doc->reset(graph, writable ? copy.originalPath : QString(), true);
                showGraph(std::move(graph), true);
                ++restored;
                statusBar()->showMessage(tr("Restored unsaved changes from %1").arg(copy.savedAt.toLocalTime().toString()));
            }
        }
        Autosaver::remove(copy); // restored (the live autosave takes over) or declined
    }
    if (restored)
        m_autosaver->saveNow();
    return restored;
}

std::vector<NodeId> MainWindow::selectedNodeIds() const
{
    std::vector<NodeId> ids;
    if (m_graph)
        for (std::size_t i : m_scene->selectedNodes())
            ids.push_back(m_graph->nodes[i].id);
    return ids;
}

void MainWindow::onGraphEdited(std::shared_ptr<const Graph> graph)
{
    if (m_reselect.empty())
        m_reselect = selectedNodeIds();
    if (const GraphCost* cost = m_overlay.cost()) {
        m_totalBeforeEdit = cost->totalNs;
        m_lastEditText = m_doc->lastChange();
    }
    showGraph(std::move(graph), false);
}

void MainWindow::reselectAfterLayout()
{
    if (m_reselect.empty() || !m_graph)
        return;
    const std::vector<NodeId> ids = std::exchange(m_reselect, {});
    bool first = true;
    for (NodeId id : ids) {
        auto index = m_graph->indexOf(id);
        if (!index)
            continue;
        if (first) {
            m_scene->selectNode(*index);
            if (NodeItem* item = m_scene->itemForNode(*index))
                m_canvas->ensureVisible(item);
            first = false;
        } else if (NodeItem* item = m_scene->itemForNode(*index)) {
            item->setSelected(true);
        }
    }
}

void MainWindow::renameSelected()
{
    const auto ids = selectedNodeIds();
    if (ids.size() != 1)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename"), tr("Name:"), QLineEdit::Normal,
                                               QString::fromStdString(m_graph->find(ids.front())->displayName()), &ok);
    if (ok)
        m_editor->rename(ids.front(), name);
}

void MainWindow::groupSelected()
{
    const auto ids = selectedNodeIds();
    if (ids.empty())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Group selection"), tr("Group path (a/b/c; empty ungroups):"),
                                               QLineEdit::Normal, QStringLiteral("group"), &ok);
    if (ok)
        m_editor->group(ids, name);
}

void MainWindow::onNodeContextMenu(int nodeIndex, QMenu* menu)
{
    const Node& n = m_graph->nodes[static_cast<std::size_t>(nodeIndex)];
    const NodeId id = n.id;
    menu->addAction(tr("Rename…"), this, &MainWindow::renameSelected);
    menu->addAction(tr("Delete"), this, [this] { m_editor->remove(selectedNodeIds()); });
    menu->addAction(tr("Copy"), this, [this] { m_editor->copy(selectedNodeIds()); });
    const bool output = m_graph->isOutput(id);
    menu->addAction(output ? tr("Unmark as graph output") : tr("Mark as graph output"), this,
                    [this, id, output] { m_editor->setOutput(id, !output); });
    for (std::size_t slot = 0; slot < n.inputs.size(); ++slot) {
        const Node* src = m_graph->find(n.inputs[slot]);
        const QString from = src ? QString::fromStdString(src->displayName().empty() ? src->op.label() : src->displayName())
                                 : QStringLiteral("#%1").arg(n.inputs[slot]);
        menu->addAction(tr("Disconnect input %1 (%2)").arg(slot).arg(from), this,
                        [this, id, slot] { m_editor->disconnectInput(id, static_cast<int>(slot)); });
    }
    if (selectedNodeIds().size() > 1) {
        menu->addAction(tr("Fuse selection"), this, [this] { m_editor->fuse(selectedNodeIds()); });
        menu->addAction(tr("Group selection…"), this, &MainWindow::groupSelected);
    }
}

void MainWindow::onOpDropped(const QByteArray& opName, QPointF scenePos)
{
    const auto kind = opKindFromName(opName.toStdString());
    if (!kind)
        return;
    if (!m_graph)
        newGraph();
    std::optional<NodeId> after;
    if (const int node = m_scene->nodeAt(scenePos); node >= 0)
        after = m_graph->nodes[static_cast<std::size_t>(node)].id;
    m_editor->addOp(*kind, after);
}

} // namespace costscope
