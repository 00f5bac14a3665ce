// SPDX-License-Identifier: MIT
// Editing on real widgets (offscreen): every edit kind with undo/redo, the palette, ports, the property panel,
// fuse, copy/paste, a long random edit sequence undone to the original, save/load, the close prompt, autosave and
// recovery after the process is killed.
#include "canvas/canvas_view.h"
#include "canvas/edge_item.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "diff/diff_window.h"
#include "edit/autosaver.h"
#include "edit/graph_document.h"
#include "edit/graph_editor.h"
#include "edit/op_palette.h"
#include "formats/graph_file.h"
#include "formats/rlx_json.h"
#include "ir/fused_op.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "panels/node_table_model.h"
#include "panels/property_panel.h"
#include "test_paths.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QTableWidget>
#include <QApplication>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <random>

using namespace costscope;

namespace {

QString tinyTransformer() { return test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")); }

// The example graph copied into dir, so that saving it changes nothing in the source tree.
QString scratchCopy(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("tiny.hir.json"));
    return QFile::copy(tinyTransformer(), path) ? path : QString();
}

bool waitForLayout(MainWindow& w)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    return ready.wait(60000);
}

bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    w.openFile(path);
    return ready.wait(60000);
}

// The document's graph once the canvas has drawn it.
bool editAndWait(MainWindow& w, const std::function<bool()>& edit)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    if (!edit())
        return false;
    return ready.count() > 0 || ready.wait(60000);
}

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(QLatin1String(name)); }

void select(MainWindow& w, const std::vector<NodeId>& ids)
{
    w.scene()->clearSelection();
    for (NodeId id : ids)
        if (NodeItem* item = w.scene()->itemForNode(*w.graph()->indexOf(id)))
            item->setSelected(true);
}

QPoint viewPos(MainWindow& w, const NodeItem* item, QPointF itemPos)
{
    return w.canvas()->mapFromScene(item->mapToScene(itemPos));
}

// Crash child: opens FILE, edits it, waits for the recovery copy, says "ready" and runs until it is killed.
int crashChild(int argc, char** argv)
{
    QApplication app(argc, argv);
    MainWindow w;
    w.setSaveChangesPrompt([](const QString&) { return int(QMessageBox::Discard); });
    w.show();
    if (!openAndWait(w, QString::fromLocal8Bit(argv[2])))
        return 3;
    w.autosaver()->setInterval(50);
    QSignalSpy saved(w.autosaver(), &Autosaver::autosaved);
    if (!w.editor()->rename(0, QStringLiteral("edited-before-crash")) || !saved.wait(10000))
        return 4;
    std::printf("ready\n");
    std::fflush(stdout);
    return QApplication::exec();
}

} // namespace

class TestEditing : public QObject {
    Q_OBJECT
private slots:
    void newGraphPaletteAndUndo()
    {
        MainWindow w;
        w.show();
        w.newGraph();
        QVERIFY(w.graph());
        QVERIFY(w.graph()->nodes.empty());
        w.opPalette()->filter()->setText(QStringLiteral("norm"));
        QVERIFY(w.opPalette()->visibleCount() >= 3); // LayerNorm, RmsNorm, BatchNorm, ...
        w.opPalette()->filter()->setText(QStringLiteral("Input"));
        QTest::keyClick(w.opPalette()->filter(), Qt::Key_Return);
        QCOMPARE(w.graph()->nodes.size(), std::size_t{1});
        QCOMPARE(w.graph()->nodes[0].op.kind, OpKind::Input);
        QVERIFY(waitForLayout(w));
        select(w, {w.graph()->nodes[0].id});
        // The palette adds after the selected node: an Activation reads the input and takes its shape.
        w.opPalette()->filter()->setText(QStringLiteral("Activation"));
        QTest::keyClick(w.opPalette()->filter(), Qt::Key_Return);
        QCOMPARE(w.graph()->nodes.size(), std::size_t{2});
        const Node& relu = w.graph()->nodes[1];
        QCOMPARE(relu.inputs, std::vector<NodeId>{w.graph()->nodes[0].id});
        QCOMPARE(relu.shape, w.graph()->nodes[0].shape);
        QVERIFY(w.isWindowModified());
        QVERIFY(w.windowTitle().contains(QStringLiteral("[*]")));

        QUndoStack* stack = w.document()->undoStack();
        QCOMPARE(stack->count(), 2);
        stack->undo();
        QCOMPARE(w.graph()->nodes.size(), std::size_t{1});
        stack->undo();
        QVERIFY(w.graph()->nodes.empty());
        QVERIFY(!w.isWindowModified());
        stack->redo();
        stack->redo();
        QCOMPARE(w.graph()->nodes.size(), std::size_t{2});
    }

    void templatesOpenValid()
    {
        MainWindow w;
        w.show();
        for (const edit::TemplateInfo& t : edit::graphTemplates()) {
            w.newGraph(t.id);
            QVERIFY(w.graph());
            QVERIFY2(w.scene()->problems().empty(), t.title.c_str());
            QCOMPARE(w.document()->undoStack()->count(), 0);
        }
    }

    void dropFromPaletteOntoANode()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        w.newGraph(edit::GraphTemplate::Mlp);
        QVERIFY(waitForLayout(w));
        const NodeId out = w.graph()->outputs.front();
        NodeItem* target = w.scene()->itemForNode(*w.graph()->indexOf(out));
        QVERIFY(target);
        w.canvas()->centerOn(target);
        const QPoint at = viewPos(w, target, QPointF(0, 0));
        QMimeData mime;
        mime.setData(QString::fromLatin1(OpPalette::mimeType()), "Activation");
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.canvas()->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        const std::size_t before = w.graph()->nodes.size();
        QApplication::sendEvent(w.canvas()->viewport(), &drop);
        QCOMPARE(w.graph()->nodes.size(), before + 1);
        QCOMPARE(w.graph()->nodes.back().op.kind, OpKind::Activation);
        QCOMPARE(w.graph()->nodes.back().inputs, std::vector<NodeId>{out});
    }

    void connectByDraggingPortToPort()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        w.newGraph(edit::GraphTemplate::Mlp);
        QVERIFY(waitForLayout(w));
        NodeId add = -1;
        QVERIFY(editAndWait(w, [&] { return (add = w.editor()->addOp(OpKind::Binary)) >= 0; }));
        const NodeId x = w.graph()->nodes.front().id; // the Input
        NodeItem* from = w.scene()->itemForNode(*w.graph()->indexOf(x));
        NodeItem* to = w.scene()->itemForNode(*w.graph()->indexOf(add));
        QVERIFY(from && to);
        QCOMPARE(to->inputPortCount(), 1);
        w.canvas()->fitAll();
        w.canvas()->zoomBy(1.0);
        // Press on the input's output port, drag, release on the Add's input port.
        const QPoint press = viewPos(w, from, from->outputPortPos());
        const QPoint release = viewPos(w, to, to->inputPortPos(0));
        QTest::mousePress(w.canvas()->viewport(), Qt::LeftButton, {}, press);
        QTest::mouseMove(w.canvas()->viewport(), (press + release) / 2);
        QTest::mouseMove(w.canvas()->viewport(), release);
        QTest::mouseRelease(w.canvas()->viewport(), Qt::LeftButton, {}, release);
        QCOMPARE(w.graph()->find(add)->inputs, std::vector<NodeId>{x});
        QCOMPARE(w.document()->undoStack()->undoText(), QStringLiteral("Connect x → Binary.Add"));
        w.document()->undoStack()->undo();
        QVERIFY(w.graph()->find(add)->inputs.empty());
    }

    void refusedEditsSayWhyAndChangeNothing()
    {
        MainWindow w;
        w.show();
        w.newGraph(edit::GraphTemplate::Mlp);
        QSignalSpy failed(w.document(), &GraphDocument::editFailed);
        const auto before = w.graph();
        const NodeId first = w.graph()->nodes.front().id;
        const NodeId out = w.graph()->outputs.front();
        // The output feeding an op upstream of it would make a cycle.
        NodeId matmul = -1;
        for (const Node& n : w.graph()->nodes)
            if (n.op.kind == OpKind::MatMul && matmul < 0)
                matmul = n.id;
        QVERIFY(!w.editor()->connectNodes(out, matmul, 0));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.takeFirst().at(0).toString().contains(QStringLiteral("cycle")));
        QVERIFY(!w.editor()->setShape(first, QStringLiteral("F32[batch,")));
        QVERIFY(failed.takeFirst().at(0).toString().contains(QStringLiteral("expected DTYPE")));
        QVERIFY(!w.editor()->connectNodes(out, first, 0));
        QVERIFY(failed.takeFirst().at(0).toString().contains(QStringLiteral("takes no inputs")));
        QCOMPARE(w.graph(), before);
        QCOMPARE(w.document()->undoStack()->count(), 0);
    }

    void propertyPanelEditsAndInvalidNodes()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, tinyTransformer()));
        // Attention (id 10): the panel's num_heads row, typed into as a user does.
        QVERIFY(w.scene()->selectNode(*w.graph()->indexOf(10)));
        QTreeWidgetItem* heads = w.propertyPanel()->editRow(PropertyPanel::Edit::Attribute, QStringLiteral("num_heads"));
        QVERIFY(heads);
        QVERIFY(editAndWait(w, [&] {
            heads->setText(1, QStringLiteral("5"));
            return true;
        }));
        QCOMPARE(w.graph()->find(10)->op.attrs.getInt("num_heads"), std::optional<std::int64_t>(5));
        QVERIFY(w.scene()->problems().count(10));
        NodeItem* att = w.scene()->itemForNode(*w.graph()->indexOf(10));
        QVERIFY(att && !att->problem().isEmpty());
        QVERIFY(att->toolTip().contains(att->problem()));
        QVERIFY(!w.propertyPanel()->valueOf(QStringLiteral("Node"), QStringLiteral("problem")).isEmpty());
        QVERIFY(editAndWait(w, [&] {
            w.document()->undoStack()->undo();
            return true;
        }));
        QVERIFY(!w.scene()->problems().count(10));
        QVERIFY(w.scene()->itemForNode(*w.graph()->indexOf(10))->problem().isEmpty());

        // Rename, a leaf's shape, the graph output flag, a new attribute: each one undo step.
        QVERIFY(w.scene()->selectNode(*w.graph()->indexOf(0)));
        w.propertyPanel()->editRow(PropertyPanel::Edit::Name)->setText(1, QStringLiteral("tokens"));
        QCOMPARE(QString::fromStdString(w.graph()->find(0)->displayName()), QStringLiteral("tokens"));
        QVERIFY(waitForLayout(w));
        QVERIFY(w.scene()->selectNode(*w.graph()->indexOf(0)));
        w.propertyPanel()->editRow(PropertyPanel::Edit::Shape)->setText(1, QStringLiteral("F32[batch,16,32]"));
        QCOMPARE(QString::fromStdString(w.graph()->find(0)->shape.toString()), QStringLiteral("F32[batch,16,32]"));
        QVERIFY(!w.scene()->problems().empty()); // LayerNorm weights of width 64 no longer fit
        QVERIFY(waitForLayout(w));
        QVERIFY(w.scene()->selectNode(*w.graph()->indexOf(53)));
        w.propertyPanel()->editRow(PropertyPanel::Edit::Output)->setText(1, QStringLiteral("yes"));
        QVERIFY(w.graph()->isOutput(53));
        QVERIFY(waitForLayout(w));
        QVERIFY(w.scene()->selectNode(*w.graph()->indexOf(54)));
        w.propertyPanel()->editRow(PropertyPanel::Edit::NewAttribute)->setText(1, QStringLiteral("note = logits"));
        QCOMPARE(w.graph()->find(54)->op.attrs.getString("note"), std::optional<std::string>("logits"));
        QStringList texts;
        for (int i = 0; i < w.document()->undoStack()->count(); ++i)
            texts << w.document()->undoStack()->text(i);
        // 4: the undone num_heads edit left the history when the rename was pushed.
        QVERIFY2(w.document()->undoStack()->count() == 4, qPrintable(texts.join(QStringLiteral(" | "))));
        while (w.document()->undoStack()->canUndo())
            w.document()->undoStack()->undo();
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.scene()->problems().empty());
    }

    void deleteCopyPasteGroupDisconnect()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, tinyTransformer()));
        const std::size_t nodes = w.graph()->nodes.size();
        select(w, {19, 20, 21});
        QCOMPARE(w.selectedNodeIds(), (std::vector<NodeId>{19, 20, 21}));
        action(w, "actionCopy")->trigger();
        QVERIFY(w.editor()->canPaste());
        QVERIFY(editAndWait(w, [&] {
            action(w, "actionPaste")->trigger();
            return true;
        }));
        QCOMPARE(w.graph()->nodes.size(), nodes + 3);
        QCOMPARE(w.selectedNodeIds().size(), std::size_t{3}); // the pasted nodes are selected once drawn

        QVERIFY(editAndWait(w, [&] { return w.editor()->group({19, 20, 21}, QStringLiteral("mine/mlp")); }));
        QVERIFY(w.scene()->groups().find("mine/mlp") > 0);

        select(w, {54});
        QVERIFY(editAndWait(w, [&] {
            action(w, "actionDelete")->trigger();
            return true;
        }));
        QVERIFY(!w.graph()->find(54));
        QVERIFY(w.graph()->outputs.empty());

        QVERIFY(editAndWait(w, [&] { return w.editor()->disconnectInput(53, 1); }));
        QCOMPARE(w.graph()->find(53)->inputs.size(), std::size_t{1});
        QVERIFY(w.scene()->problems().count(53)); // MatMul with one input

        // An edge selected on the canvas and deleted: Gelu (21) → fc2 MatMul (23).
        const int geluUnit = w.scene()->itemForNode(*w.graph()->indexOf(21))->unit();
        const int fc2Unit = w.scene()->itemForNode(*w.graph()->indexOf(23))->unit();
        w.scene()->clearSelection();
        bool found = false;
        for (QGraphicsItem* it : w.scene()->items())
            if (it->type() == EdgeItem::Type) {
                auto* edge = static_cast<EdgeItem*>(it);
                if (edge->sourceUnit() == geluUnit && edge->targetUnit() == fc2Unit) {
                    edge->setSelected(true);
                    found = true;
                }
            }
        QVERIFY(found);
        QVERIFY(editAndWait(w, [&] {
            action(w, "actionDelete")->trigger();
            return true;
        }));
        QCOMPARE(w.graph()->find(23)->inputs, std::vector<NodeId>{22});
        QVERIFY(w.scene()->problems().count(23));
        QCOMPARE(w.document()->undoStack()->undoText(), QStringLiteral("Delete edge Activation.Gelu → MatMul"));
        QCOMPARE(w.document()->undoStack()->count(), 5);
    }

    void fuseSelectionShowsTheCostChange()
    {
        MainWindow w;
        w.setCostProvider(makeCostProvider());
        w.show();
        {
            QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
            QVERIFY(openAndWait(w, tinyTransformer()));
            QVERIFY(costs.count() > 0 || costs.wait(30000));
        }
        const Graph original = *w.graph();
        select(w, {19, 20, 21, 23});
        QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
        action(w, "actionFuse")->trigger();
        QCOMPARE(w.graph()->nodes.size(), original.nodes.size() - 3);
        QVERIFY(isFusedNode(*w.graph()->find(23)));
        QVERIFY(costs.wait(30000));
        QVERIFY2(w.lastEditCostChange().startsWith(QStringLiteral("Fuse 4 node(s): ")), qPrintable(w.lastEditCostChange()));
        QVERIFY(w.lastEditCostChange().contains(QStringLiteral(" → ")));
        // The fused node says what it is priced as: two GEMMs with their epilogue, not an unknown op.
        QVERIFY(QTest::qWaitFor([&] { return w.scene()->itemForNode(*w.graph()->indexOf(23)) != nullptr; }, 30000));
        select(w, {23});
        QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Node"), QStringLiteral("class")), QStringLiteral("matmul"));
        QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Node"), QStringLiteral("kernel")),
                 QStringLiteral("2 GEMMs with epilogue"));
        QVERIFY(w.propertyPanel()->valueOf(QStringLiteral("Node"), QStringLiteral("members")).startsWith(QStringLiteral("#19 MatMul")));
        w.document()->undoStack()->undo();
        QVERIFY(*w.graph() == original); // the originals come back whole
    }

    void randomEditsUndoneGiveTheOriginal()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, tinyTransformer()));
        const Graph original = *w.graph();
        std::mt19937 rng(20261123);
        auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
        const OpKind kinds[] = {OpKind::Binary, OpKind::Activation, OpKind::Softmax, OpKind::MatMul,
                                OpKind::LayerNorm, OpKind::Transpose, OpKind::Input, OpKind::Param};
        int applied = 0;
        for (int step = 0; step < 300; ++step) {
            const Graph& g = *w.graph();
            if (g.nodes.empty())
                break;
            const NodeId a = g.nodes[pick(g.nodes.size())].id;
            const NodeId b = g.nodes[pick(g.nodes.size())].id;
            bool ok = false;
            switch (pick(10)) {
            case 0: ok = w.editor()->addOp(kinds[pick(std::size(kinds))], a) >= 0; break;
            case 1: ok = w.editor()->remove({a}); break;
            case 2: ok = w.editor()->connectNodes(a, b, static_cast<int>(pick(3))); break;
            case 3: ok = w.editor()->disconnectInput(a, 0); break;
            case 4: ok = w.editor()->rename(a, QStringLiteral("n%1").arg(step)); break;
            case 5: ok = w.editor()->setAttribute(a, QStringLiteral("axis"), QString::number(int(pick(3)) - 1)); break;
            case 6: ok = w.editor()->setShape(a, QStringLiteral("F32[batch,%1]").arg(16 << pick(3))); break;
            case 7: ok = w.editor()->fuse({a, b}) >= 0; break;
            case 8: ok = w.editor()->group({a, b}, QStringLiteral("g%1").arg(step % 4)); break;
            default:
                w.editor()->copy({a, b});
                ok = w.editor()->paste();
                break;
            }
            applied += ok;
            if (step % 37 == 0 && w.document()->undoStack()->canUndo()) // undo in the middle too
                w.document()->undoStack()->undo();
        }
        QVERIFY2(applied > 100, qPrintable(QString::number(applied)));
        const Graph edited = *w.graph();
        while (w.document()->undoStack()->canUndo())
            w.document()->undoStack()->undo();
        QVERIFY(*w.graph() == original);
        QVERIFY(!w.isWindowModified());
        while (w.document()->undoStack()->canRedo())
            w.document()->undoStack()->redo();
        QVERIFY(*w.graph() == edited);
        QVERIFY(waitForLayout(w)); // the canvas still draws what the document holds
        QCOMPARE(w.nodeTableModel()->rowCount(), static_cast<int>(edited.nodes.size()));
    }

    void saveAndReloadRoundTrips()
    {
        QTemporaryDir dir;
        MainWindow w;
        QStringList errors;
        w.setErrorReporter([&](const QString&, const QString& message) { errors << message; });
        w.show();
        QVERIFY(openAndWait(w, tinyTransformer()));
        QVERIFY(w.editor()->fuse({19, 20, 21, 23}) >= 0);
        QVERIFY(w.editor()->rename(0, QStringLiteral("tokens")));
        QVERIFY(w.isWindowModified());
        for (const QString& name : {QStringLiteral("edited.costscope"), QStringLiteral("edited.hir.json")}) {
            const QString path = dir.filePath(name);
            QVERIFY(w.saveAs(path));
            QVERIFY(!w.isWindowModified());
            QCOMPARE(w.document()->path(), path);
            QVERIFY(w.windowTitle().startsWith(name));
            auto loaded = loadGraphFile(path.toStdString());
            QVERIFY(loaded);
            QCOMPARE(writeRlxJson(loaded->graph), writeRlxJson(*w.graph()));
            QVERIFY(w.editor()->rename(0, QStringLiteral("again")));
            QVERIFY(w.isWindowModified());
            QVERIFY(w.editor()->rename(0, QStringLiteral("tokens")));
        }
        QVERIFY(!w.saveAs(dir.filePath(QStringLiteral("model.onnx"))));
        QVERIFY(!w.saveAs(dir.filePath(QStringLiteral("missing/dir/x.costscope"))));
        QCOMPARE(errors.size(), 2);
        QVERIFY(errors[0].contains(QStringLiteral("does not write ONNX")));
        QVERIFY(w.isWindowModified()); // a failed save leaves the changes unsaved

        // Reopening the saved document (through the window) gives the saved graph.
        QVERIFY(w.save());
        MainWindow other;
        QVERIFY(openAndWait(other, w.document()->path()));
        QCOMPARE(writeRlxJson(*other.graph()), writeRlxJson(*w.graph()));
    }

    void compareWithShowsTheDiffSideBySide()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.setCostProvider(makeCostProvider());
        w.show();
        QVERIFY(openAndWait(w, tinyTransformer()));
        // B: the MLP of block 0 fused, the head renamed, a Softmax added after the output.
        QVERIFY(w.editor()->fuse({19, 20, 21, 23}) >= 0);
        QVERIFY(w.editor()->addOp(OpKind::Softmax, 54) >= 0);
        const QString edited = dir.filePath(QStringLiteral("fused.costscope"));
        QVERIFY(w.saveAs(edited));
        while (w.document()->undoStack()->canUndo())
            w.document()->undoStack()->undo();

        QSignalSpy opened(&w, &MainWindow::diffOpened);
        w.compareWith(edited);
        QVERIFY(opened.wait(30000));
        auto* diff = opened.takeFirst().at(0).value<DiffWindow*>();
        QVERIFY(diff);
        QSignalSpy costs(diff, &DiffWindow::costsReady);
        QVERIFY(!diff->costs().empty() || costs.wait(30000)); // they may have come while the window opened
        // Removed: Add, Gelu and the fc1 MatMul (folded into the fused node, which keeps id 23 and changes);
        // added: the new Softmax.
        QCOMPARE(diff->diff().removed.size(), std::size_t{3});
        QCOMPARE(diff->diff().added.size(), std::size_t{1});
        QVERIFY(diff->diff().changedCount() >= 1);
        QVERIFY(diff->summaryText().contains(QStringLiteral("3 removed")));
        QVERIFY(diff->totalsText().contains(QStringLiteral(" → ")));
        QVERIFY(!diff->costs().empty());
        QCOMPARE(diff->deviceSelector()->currentText(), w.deviceSelector()->currentText());
        // By default only what differs: 3 removed, 1 added, the changed fused node, and nodes whose cost moved.
        QVERIFY(diff->table()->rowCount() >= 5);
        QVERIFY(diff->table()->rowCount() < static_cast<int>(diff->costs().front().nodes.size()));
        diff->showUnchanged()->setChecked(true);
        QCOMPARE(diff->table()->rowCount(), static_cast<int>(diff->costs().front().nodes.size()));
        // The marks: red on the left for removed nodes, green on the right for the added one.
        const std::size_t removed = diff->diff().removed.front();
        const std::size_t added = diff->diff().added.front();
        QTRY_VERIFY_WITH_TIMEOUT(diff->sceneA()->itemForNode(removed) && diff->sceneB()->itemForNode(added), 30000);
        QCOMPARE(diff->sceneA()->itemForNode(removed)->mark(), QColor(0xd0, 0x3a, 0x2f));
        QCOMPARE(diff->sceneB()->itemForNode(added)->mark(), QColor(0x2e, 0x9d, 0x4f));
        // A table row selects its pair on both canvases.
        for (int r = 0; r < diff->table()->rowCount(); ++r)
            if (diff->table()->item(r, 0)->text() == QStringLiteral("added")) {
                diff->table()->setCurrentCell(r, 0);
                QCOMPARE(diff->sceneB()->selectedNode(), static_cast<int>(added));
                QCOMPARE(diff->sceneA()->selectedNode(), -1);
            }
        diff->close();

        QStringList errors;
        w.setErrorReporter([&](const QString&, const QString& message) { errors << message; });
        w.compareWith(dir.filePath(QStringLiteral("missing.json")));
        QTRY_COMPARE(errors.size(), 1);
        QVERIFY(errors.front().contains(QStringLiteral("missing.json")));
    }

    void closeAsksAboutUnsavedChanges()
    {
        QTemporaryDir dir;
        const QString path = scratchCopy(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, path));
        QVERIFY(w.close()); // nothing to ask
        w.show();
        QVERIFY(w.editor()->rename(54, QStringLiteral("probabilities")));
        int asked = 0;
        w.setSaveChangesPrompt([&](const QString& name) {
            ++asked;
            return name == QStringLiteral("tiny.hir.json") ? int(QMessageBox::Cancel) : -1;
        });
        QVERIFY(!w.close());
        QCOMPARE(asked, 1);
        QVERIFY(w.isVisible());
        // Opening another graph asks too, and Cancel keeps the edited one.
        w.openFile(tinyTransformer());
        QCOMPARE(asked, 2);
        QCOMPARE(QString::fromStdString(w.graph()->find(54)->displayName()), QStringLiteral("probabilities"));
        w.setSaveChangesPrompt([](const QString&) { return int(QMessageBox::Save); });
        QVERIFY(w.close());
        auto saved = loadGraphFile(path.toStdString());
        QVERIFY(saved);
        QCOMPARE(QString::fromStdString(saved->graph.find(54)->displayName()), QStringLiteral("probabilities"));
    }

    void autosaveKeepsARecoveryCopyUntilSaved()
    {
        QTemporaryDir dir;
        const QString path = scratchCopy(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, path));
        w.autosaver()->setInterval(30);
        QSignalSpy saved(w.autosaver(), &Autosaver::autosaved);
        QVERIFY(!saved.wait(200)); // nothing to save while the document is clean
        QVERIFY(w.editor()->rename(0, QStringLiteral("autosaved")));
        QVERIFY(saved.wait(5000));
        const QString copy = saved.takeFirst().at(0).toString();
        auto recovered = loadGraphFile(copy.toStdString());
        QVERIFY(recovered);
        QCOMPARE(QString::fromStdString(recovered->graph.find(0)->displayName()), QStringLiteral("autosaved"));
        QVERIFY(Autosaver::orphans().empty()); // this process is alive: its copy is not an orphan
        QVERIFY(w.save());
        QVERIFY(!QFile::exists(copy));
    }

    void recoversAfterTheProcessIsKilled()
    {
        QTemporaryDir dir;
        const QString path = scratchCopy(dir);
        QVERIFY(!path.isEmpty());
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--crash-child"), path});
        QVERIFY(child.waitForStarted(10000));
        QByteArray out;
        QElapsedTimer timer;
        timer.start();
        while (!out.contains("ready") && timer.elapsed() < 60000 && child.state() == QProcess::Running)
            if (child.waitForReadyRead(1000))
                out += child.readAllStandardOutput();
        QVERIFY2(out.contains("ready"), child.readAllStandardError().constData());
        child.kill(); // SIGKILL: no destructor, no close event
        QVERIFY(child.waitForFinished(10000));

        const auto orphans = Autosaver::orphans();
        QCOMPARE(orphans.size(), std::size_t{1});
        QCOMPARE(orphans.front().originalPath, path);
        MainWindow w;
        w.show();
        int offered = 0;
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        QCOMPARE(w.offerRecovery([&](const RecoveryCopy& copy) {
            ++offered;
            return copy.originalPath == path;
        }), 1);
        QCOMPARE(offered, 1);
        QVERIFY(ready.wait(60000));
        QCOMPARE(QString::fromStdString(w.graph()->find(0)->displayName()), QStringLiteral("edited-before-crash"));
        QVERIFY(w.isWindowModified());
        QCOMPARE(w.document()->path(), path);
        QVERIFY(Autosaver::orphans().empty());
        QVERIFY(w.save());
        auto saved = loadGraphFile(path.toStdString());
        QCOMPARE(QString::fromStdString(saved->graph.find(0)->displayName()), QStringLiteral("edited-before-crash"));
    }
};

int main(int argc, char** argv)
{
    if (argc >= 3 && qstrcmp(argv[1], "--crash-child") == 0)
        return crashChild(argc, argv);
    // Settings and recovery copies in a scratch home, shared with the crash child (it inherits the environment).
    QTemporaryDir home;
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());
    QApplication app(argc, argv);
    TestEditing test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_editing.moc"
