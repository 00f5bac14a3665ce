// SPDX-License-Identifier: MIT
// The canvas's selection is a set of NodeIds (issue 18): it follows the nodes, not their positions in the graph,
// across the relayout that an edit causes. Deleting a node before the selected one keeps the selection on the same
// node (by position it moved to the next one); deleting the selected node leaves nothing selected (by position its
// successor was selected); an edit elsewhere keeps a selection of several nodes.
// The panels and charts speak NodeIds too: a node chosen in the node table stays chosen in the table, the canvas, the
// properties and the sweep chart across an edit that shifts positions, and while the edited graph is still being
// laid out (the canvas then shows the graph before the edit, the table the one after) a choice in either names the
// same node in both.
#include "canvas_driving.h"
#include "charts/sweep_panel.h"
#include "edit/graph_editor.h"
#include "panels/node_table_model.h"
#include "panels/node_table_panel.h"
#include "panels/property_panel.h"
#include "test_paths.h"
#include <QItemSelectionModel>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
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

// As a click on the node's row of the table does.
void clickRow(MainWindow& w, NodeId id)
{
    const QModelIndex row = w.nodeTable()->proxy()->mapFromSource(w.nodeTableModel()->indexOfNode(id));
    QVERIFY(row.isValid());
    w.nodeTable()->view()->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect
                                                                      | QItemSelectionModel::Rows);
}

// Every view of the selection names `id`.
void expectShown(MainWindow& w, NodeId id)
{
    QCOMPARE(w.scene()->selectedNodeIds(), std::vector<NodeId>{id});
    QCOMPARE(w.nodeTable()->selectedNode(), std::optional(id));
    QCOMPARE(w.propertyPanel()->shownNode(), std::optional(id));
    QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Node"), QStringLiteral("id")), QString::number(id));
    if (auto* sweep = w.findChild<SweepPanel*>())
        QCOMPARE(sweep->highlightedNode(), std::optional(id));
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
        QCOMPARE(selected.last().front().value<std::optional<NodeId>>(), std::nullopt); // the panels hear it is gone

        select(w, {19, 53});
        QVERIFY(editAndWait(w, [&] { return w.editor()->rename(0, QStringLiteral("renamed")); }));
        QCOMPARE(w.scene()->selectedNodeIds(), (std::vector<NodeId>{19, 53}));

        // Selecting by id shows the node's box.
        QVERIFY(w.scene()->selectNodeId(53));
        QCOMPARE(w.scene()->selectedNodeIds(), std::vector<NodeId>{53});
        QVERIFY(!w.scene()->selectNodeId(21)); // deleted
    }

    void panelsFollowNodesAcrossEdits()
    {
        MainWindow w;
        QVERIFY(test::showAndOpen(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        const auto before = [&](NodeId a, NodeId b) { return *w.graph()->indexOf(a) < *w.graph()->indexOf(b); };
        QVERIFY(before(10, 11) && before(11, 19) && before(19, 21) && before(21, 53));

        // Chosen in the table; an earlier node is deleted: the same node stays chosen everywhere.
        clickRow(w, 21);
        expectShown(w, 21);
        QVERIFY(editAndWait(w, [&] { return w.editor()->remove({10}); }));
        expectShown(w, 21);

        // An edit whose layout has not come back yet: the canvas still draws the graph before it.
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        QVERIFY(w.editor()->remove({11}));
        QVERIFY(!w.graph()->find(11));
        QCOMPARE(ready.count(), 0);
        clickRow(w, 53); // a row of the edited graph
        expectShown(w, 53);
        QVERIFY(w.scene()->selectNodeId(19)); // a box of the graph before the edit
        expectShown(w, 19);
        QVERIFY(ready.wait(60000));
        // Once drawn, the edit puts back the selection it was made with; every view names that node.
        expectShown(w, 21);
    }
};

QTEST_MAIN(TestSelectionIds)
#include "test_selection_ids.moc"
