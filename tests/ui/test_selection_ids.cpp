// SPDX-License-Identifier: MIT
// The canvas's selection is a set of NodeIds (issue 18): it follows the nodes, not their positions in the graph,
// across the relayout that an edit causes. Deleting a node before the selected one keeps the selection on the same
// node (by position it moved to the next one); deleting the selected node leaves nothing selected (by position its
// successor was selected); an edit elsewhere keeps a selection of several nodes.
#include "canvas_driving.h"
#include "edit/graph_editor.h"
#include "test_paths.h"
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>
#include <functional>

using namespace costscope;

namespace {

bool editAndWait(MainWindow& w, const std::function<bool()>& edit)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    return edit() && (ready.count() > 0 || ready.wait(60000));
}

void select(MainWindow& w, const std::vector<NodeId>& ids)
{
    w.scene()->clearSelection();
    for (NodeId id : ids)
        if (NodeItem* item = w.scene()->itemForNode(*w.graph()->indexOf(id)))
            item->setSelected(true);
}

} // namespace

class TestSelectionIds : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void selectionFollowsNodesAcrossEdits()
    {
        MainWindow w;
        QVERIFY(test::showAndOpen(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        QVERIFY(w.graph()->find(10) && w.graph()->find(21) && w.graph()->find(53));
        QVERIFY(*w.graph()->indexOf(10) < *w.graph()->indexOf(21));

        select(w, {21});
        QCOMPARE(w.scene()->selectedNodeIds(), std::vector<NodeId>{21});
        QVERIFY(editAndWait(w, [&] { return w.editor()->remove({10}); }));
        QCOMPARE(w.scene()->selectedNodeIds(), std::vector<NodeId>{21});
        QCOMPARE(w.selectedNodeIds(), std::vector<NodeId>{21});
        QCOMPARE(w.scene()->selectedNode(), static_cast<int>(*w.graph()->indexOf(21)));

        QSignalSpy selected(w.scene(), &GraphScene::nodeSelected);
        QVERIFY(editAndWait(w, [&] { return w.editor()->remove({21}); }));
        QVERIFY(w.scene()->selectedNodeIds().empty());
        QVERIFY(!selected.isEmpty());
        QCOMPARE(selected.last().front().toInt(), -1); // the panels hear that nothing is selected any more

        select(w, {19, 53});
        QVERIFY(editAndWait(w, [&] { return w.editor()->rename(0, QStringLiteral("renamed")); }));
        QCOMPARE(w.scene()->selectedNodeIds(), (std::vector<NodeId>{19, 53}));

        // Selecting by id shows the node's box.
        QVERIFY(w.scene()->selectNodeId(53));
        QCOMPARE(w.scene()->selectedNodeIds(), std::vector<NodeId>{53});
        QVERIFY(!w.scene()->selectNodeId(21)); // deleted
    }
};

QTEST_MAIN(TestSelectionIds)
#include "test_selection_ids.moc"
