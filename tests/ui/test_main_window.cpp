// SPDX-License-Identifier: MIT
// The main window on real widgets (offscreen): open, table ↔ canvas selection, properties, groups, search,
// load errors, cost overlay.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/minimap.h"
#include "canvas/node_item.h"
#include "document_controller.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "panels/node_table_model.h"
#include "panels/node_table_panel.h"
#include "panels/property_panel.h"
#include "panels/search_bar.h"
#include "test_paths.h"
#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;

namespace {

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    w.openFile(path);
    return ready.wait(60000);
}

int firstNodeWithOp(const Graph& g, OpKind kind)
{
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].op.kind == kind)
            return static_cast<int>(i);
    return -1;
}

// Drags `file` over the centre of `over` and drops it, as Qt's widget window delivers a real drag: to the deepest
// widget under the cursor that accepts drops (the events propagate to its parents while ignored), enter and then
// move, the move starting from the enter's answer. The platform drops only when the last move was accepted; false
// when it was not (nothing would happen for the user either).
bool dragFileOnto(MainWindow& w, QWidget* over, const QString& file)
{
    const QPoint pos = over->mapTo(&w, over->rect().center());
    QWidget* target = w.childAt(pos);
    while (target && target != &w && !target->acceptDrops())
        target = target->parentWidget();
    if (!target)
        target = &w;
    const QPoint local = target->mapFrom(&w, pos);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(file)});
    const Qt::DropActions actions = Qt::CopyAction | Qt::MoveAction | Qt::LinkAction;
    QDragEnterEvent enter(local, actions, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QDragMoveEvent move(local, actions, &mime, Qt::LeftButton, Qt::NoModifier);
    move.setDropAction(enter.dropAction());
    move.setAccepted(enter.isAccepted());
    QApplication::sendEvent(target, &move);
    if (!move.isAccepted() || move.dropAction() == Qt::IgnoreAction)
        return false;
    QDropEvent drop(QPointF(local), actions, &mime, Qt::LeftButton, Qt::NoModifier);
    drop.setDropAction(move.dropAction());
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear(); // a previous run's window state (docks, geometry) must not shrink this run's canvas
    }

    void opensSharedGraphAndListsAllNodes()
    {
        COSTSCOPE_REQUIRE_SHARED();
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sharedPath(QStringLiteral("data/rlx/cnn.hir.json"))));
        QVERIFY(w.graph());
        const int nodes = static_cast<int>(w.graph()->nodes.size());
        QCOMPARE(w.nodeTableModel()->rowCount(), nodes);
        QCOMPARE(w.scene()->visibleNodeItemCount(), nodes);
        QAbstractItemModelTester tester(w.nodeTableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(w.nodeTable()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.nodeTable()->filter()->setText(QStringLiteral("Conv"));
        QCOMPARE(w.nodeTable()->proxy()->rowCount(), 2);
    }

    void canvasAndTableSelectEachOther()
    {
        COSTSCOPE_REQUIRE_SHARED();
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sharedPath(QStringLiteral("data/rlx/cnn.hir.json"))));
        const int conv = firstNodeWithOp(*w.graph(), OpKind::Conv);
        QVERIFY(conv >= 0);
        NodeItem* item = w.scene()->itemForNode(static_cast<std::size_t>(conv));
        QVERIFY(item);
        item->setSelected(true); // as a click on the canvas does
        QCOMPARE(w.nodeTable()->selectedNode(), std::optional(w.graph()->nodes[std::size_t(conv)].id));
        QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Node"), QStringLiteral("op")), QStringLiteral("Conv"));
        const auto& attrs = w.graph()->nodes[static_cast<std::size_t>(conv)].op.attrs;
        QVERIFY(attrs.find("kernel_size"));
        QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Attributes"), QStringLiteral("kernel_size")),
                 QString::fromStdString(attrToString(*attrs.find("kernel_size"))));
        QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Output"), QStringLiteral("shape")),
                 QString::fromStdString(w.graph()->nodes[static_cast<std::size_t>(conv)].shape.toString()));

        const int other = static_cast<int>(w.graph()->nodes.size()) - 1;
        const QModelIndex row = w.nodeTable()->proxy()->mapFromSource(w.nodeTableModel()->index(other, 0));
        w.nodeTable()->view()->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect |
                                                                          QItemSelectionModel::Rows);
        QCOMPARE(w.scene()->selectedNodeId(), std::optional(w.graph()->nodes[std::size_t(other)].id));
        QVERIFY(!item->isSelected());
    }

    void collapseAndExpandChangesVisibleItems()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        const int before = w.scene()->visibleNodeItemCount();
        const int group = w.scene()->groups().find("h/0");
        QVERIFY(group > 0);
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.scene()->setGroupCollapsed(group, true);
        QVERIFY(ready.wait(30000));
        const int collapsed = w.scene()->visibleNodeItemCount();
        const auto members = static_cast<int>(w.scene()->groups().groups[static_cast<std::size_t>(group)].allNodes.size());
        QCOMPARE(collapsed, before - members + 1);
        // Double-clicking the collapsed group's box opens it again.
        NodeItem* box = w.scene()->itemForNode(w.scene()->groups().groups[static_cast<std::size_t>(group)].allNodes.front());
        QVERIFY(box && box->style() == NodeItem::Style::Group);
        w.canvas()->centerOn(box);
        QTest::mouseDClick(w.canvas()->viewport(), Qt::LeftButton, Qt::NoModifier, w.canvas()->mapFromScene(box->pos()));
        QVERIFY(ready.wait(30000));
        QCOMPARE(w.scene()->visibleNodeItemCount(), before);
        QVERIFY(!w.scene()->isGroupCollapsed(group));

        QSignalSpy again(&w, &MainWindow::layoutReady);
        w.scene()->setShowParams(false);
        QVERIFY(again.wait(30000));
        QVERIFY(w.scene()->visibleNodeItemCount() < before);
    }

    // Collapsing or expanding a group brings it into view (not empty space, not under the minimap), and a selected
    // group shows its aggregate in the Properties panel.
    void toggledGroupIsInViewAndShowsItsAggregate()
    {
        MainWindow w;
        w.resize(1000, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        w.setCostProvider(makeCostProvider());
        QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() != nullptr; }, 30000));
        const int group = w.scene()->groups().find("h/1");
        QVERIFY(group > 0);
        const auto& members = w.scene()->groups().groups[static_cast<std::size_t>(group)].allNodes;
        auto inView = [&](const QGraphicsItem* item) {
            const QPoint at = w.canvas()->mapFromScene(item->sceneBoundingRect().center());
            const QRect minimap = w.canvas()->minimap()->isVisible() ? w.canvas()->minimap()->geometry() : QRect();
            return w.canvas()->viewport()->rect().contains(at) && !minimap.contains(at);
        };
        w.canvas()->zoomBy(1.5 / w.canvas()->zoom()); // the graph is larger than the view
        for (bool collapse : {true, false}) {
            w.canvas()->centerOn(w.scene()->sceneRect().bottomRight()); // far from the group
            QSignalSpy ready(&w, &MainWindow::layoutReady);
            w.scene()->setGroupCollapsed(group, collapse);
            QVERIFY(ready.wait(30000));
            const NodeItem* shown = w.scene()->itemForNode(members.front());
            QVERIFY(shown);
            QVERIFY2(inView(shown), collapse ? "collapsed box out of view" : "first member out of view");
        }

        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.scene()->setGroupCollapsed(group, true);
        QVERIFY(ready.wait(30000));
        NodeItem* box = w.scene()->itemForNode(members.front());
        QVERIFY(box && box->style() == NodeItem::Style::Group);
        box->setSelected(true);
        QCOMPARE(w.scene()->selectedGroup(), group);
        PropertyPanel* p = w.propertyPanel();
        QCOMPARE(p->valueOf(QStringLiteral("Group"), QStringLiteral("path")), QStringLiteral("h/1"));
        QCOMPARE(p->valueOf(QStringLiteral("Group"), QStringLiteral("nodes")), QString::number(members.size()));
        double total = 0;
        for (std::size_t i : members)
            total += w.overlay().cost()->nodes[i].totalNs;
        QCOMPARE(p->valueOf(QStringLiteral("Cost"), QStringLiteral("total")), formatNs(total));
        QVERIFY(p->valueOf(QStringLiteral("IO"), QStringLiteral("tensors in")).toInt() > 0);
        QVERIFY(p->valueOf(QStringLiteral("IO"), QStringLiteral("tensors out")).toInt() > 0);
        QVERIFY(!p->valueOf(QStringLiteral("Cost"), QStringLiteral("sync points")).isEmpty());
        const Node& first = w.graph()->nodes[members.front()];
        const QString label = QString::fromStdString(first.displayName().empty() ? first.op.label() : first.displayName());
        QCOMPARE(p->valueOf(QStringLiteral("Members"), QStringLiteral("#%1 %2").arg(first.id).arg(label)),
                 formatNs(w.overlay().cost()->nodes[members.front()].totalNs));
    }

    void searchFindsAndSelects()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        w.searchBar()->setQuery(QStringLiteral("Attention"), SearchBar::Mode::Op);
        QCOMPARE(w.searchBar()->matches().size(), std::size_t(2));
        w.searchBar()->next();
        const std::optional<NodeId> first = w.scene()->selectedNodeId();
        QVERIFY(first);
        QCOMPARE(w.graph()->find(*first)->op.kind, OpKind::Attention);
        QCOMPARE(w.nodeTable()->selectedNode(), first);
        w.searchBar()->next();
        const std::optional<NodeId> second = w.scene()->selectedNodeId();
        QVERIFY(second != first);
        w.searchBar()->previous();
        QCOMPARE(w.scene()->selectedNodeId(), first);
        w.searchBar()->setQuery(QStringLiteral("^h\\.1\\.mlp\\.fc[12]\\.weight$"), SearchBar::Mode::Regex);
        QCOMPARE(w.searchBar()->matches().size(), std::size_t(2));
    }

    void loadErrorShowsTheMessage()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(writeFile(bad, "{\"name\": \"x\", \"nodes\": ["));
        MainWindow w;
        w.show();
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openFile(bad);
        QVERIFY(failed.wait(30000));
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("loadErrorBox"));
        QVERIFY(box);
        QVERIFY(box->isVisible());
        QVERIFY2(box->text().startsWith(bad), qPrintable(box->text()));
        box->close();

        QString reported;
        w.setErrorReporter([&](const QString&, const QString& message) { reported = message; });
        w.openFile(dir.filePath(QStringLiteral("missing.json")));
        QVERIFY(failed.wait(30000));
        QVERIFY(reported.contains(QStringLiteral("missing.json")));
    }

    void loadWarningsAreShown()
    {
        // An op this build does not know opens as written, with the reader's warning (as costscope-cli prints it)
        // behind a mark in the status bar, not dropped.
        QTemporaryDir dir;
        const QString odd = dir.filePath(QStringLiteral("odd.json"));
        QVERIFY(writeFile(odd, R"({"name":"u","nodes":[
          {"id":0,"op":{"Input":{"name":"x"}},"inputs":[],"shape":{"dims":[{"Static":4}],"dtype":"F32"},"name":null},
          {"id":1,"op":{"Mir":{"FancyNewOp":{"alpha":0.5}}},"inputs":[0],"shape":{"dims":[{"Static":4}],"dtype":"F32"},
           "name":"fancy"}],"outputs":[1]})"));
        MainWindow w;
        w.show();
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.openFile(odd);
        QVERIFY(ready.wait(30000));
        QCOMPARE(w.documents()->loadWarnings().size(), qsizetype(1));
        const QString warning = w.documents()->loadWarnings().front();
        QVERIFY2(warning.contains(QStringLiteral("unknown op FancyNewOp")), qPrintable(warning));
        auto* mark = w.statusBar()->findChild<QLabel*>(QStringLiteral("loadWarnings"));
        QVERIFY(mark);
        QVERIFY(mark->isVisible());
        QVERIFY2(mark->text().contains(QStringLiteral("1 load warning")), qPrintable(mark->text()));
        QVERIFY(mark->toolTip().contains(warning));

        w.openFile(test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json")));
        QVERIFY(ready.wait(30000));
        QVERIFY(w.documents()->loadWarnings().isEmpty());
        QVERIFY(!mark->isVisible());
    }

    void olderLoadResultIsDropped()
    {
        MainWindow w;
        w.show();
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        QSignalSpy loaded(&w, &MainWindow::graphLoaded);
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        const QString good = test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
        w.openFile(QStringLiteral("/nonexistent/first.json"));
        w.openFile(good);
        QVERIFY(ready.wait(30000));
        QTest::qWait(50);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(w.currentFile(), good);
    }

    void dropOpensFileAndRecentAndGeometryPersist()
    {
        const QString file = test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"));
        {
            MainWindow w;
            w.show();
            QSignalSpy ready(&w, &MainWindow::layoutReady);
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(file)});
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&w, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&w, &drop);
            QVERIFY(ready.wait(30000));
            QCOMPARE(w.currentFile(), file);
            w.resize(1434, 977);
            w.close();
        }
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("recentFiles")).toStringList().value(0), QFileInfo(file).canonicalFilePath());
        QVERIFY(!settings.value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
        MainWindow again;
        QCOMPARE(again.size(), QSize(1434, 977));
    }

    // The status bar invites a drop anywhere: on the canvas (empty or showing a graph), on a dock, on the window.
    void dropOpensFileOnCanvasDocksAndEmptyWindow()
    {
        const QString cnn = test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
        const QString tiny = test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"));
        auto dropAndWait = [](MainWindow& w, QWidget* over, const QString& file) {
            QSignalSpy ready(&w, &MainWindow::layoutReady);
            return dragFileOnto(w, over, file) && ready.wait(30000) && w.currentFile() == file;
        };
        {
            MainWindow w;
            w.resize(1200, 800);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(dropAndWait(w, w.canvas()->viewport(), cnn)); // the empty canvas
            QVERIFY(dropAndWait(w, w.canvas()->viewport(), tiny)); // the canvas showing a graph
            w.canvas()->zoomBy(4.0 / w.canvas()->zoom());
            QVERIFY(w.canvas()->minimap()->isVisible());
            QVERIFY(dropAndWait(w, w.canvas()->minimap(), cnn)); // its minimap
            QVERIFY(dropAndWait(w, w.nodeTable()->view()->viewport(), tiny)); // a dock
            auto* summary = w.findChild<QDockWidget*>(QStringLiteral("summaryDock"));
            QVERIFY(summary);
            QVERIFY(dropAndWait(w, summary, cnn));
        }
        {
            MainWindow w;
            w.resize(1200, 800);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(dropAndWait(w, w.statusBar(), tiny)); // the empty window's frame
        }
        QSettings().remove(QStringLiteral("recentFiles"));
    }

    // Two files of one name are told apart by their folder, and one file reached by two spellings is one entry.
    void recentFilesAreDistinct()
    {
        QSettings().remove(QStringLiteral("recentFiles"));
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("a")) && QDir(dir.path()).mkpath(QStringLiteral("b")));
        const QString source = test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
        const QString a = dir.filePath(QStringLiteral("a/model.json"));
        const QString b = dir.filePath(QStringLiteral("b/model.json"));
        QVERIFY(QFile::copy(source, a) && QFile::copy(source, b));
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, a));
        QVERIFY(openAndWait(w, b));
        QVERIFY(openAndWait(w, dir.filePath(QStringLiteral("b/../a/model.json"))));
        QMenu* recent = nullptr;
        for (QMenu* m : w.findChildren<QMenu*>())
            if (m->title() == QStringLiteral("Open &Recent"))
                recent = m;
        QVERIFY(recent);
        QCOMPARE(recent->actions().size(), 2);
        const QString first = recent->actions().at(0)->text();
        const QString second = recent->actions().at(1)->text();
        QVERIFY2(first != second, qPrintable(first));
        QVERIFY2(first == QStringLiteral("model.json (%1)").arg(QFileInfo(a).canonicalPath()), qPrintable(first));
        QCOMPARE(recent->actions().at(0)->toolTip(), QFileInfo(a).canonicalFilePath());
        QSettings().remove(QStringLiteral("recentFiles"));
    }

    void viewChoicesPersist()
    {
        {
            MainWindow w;
            w.show();
            w.modelSelector()->setCurrentText(QStringLiteral("costscope"));
            w.deviceSelector()->setCurrentText(QStringLiteral("Cuda"));
            w.overlaySelector()->setCurrentIndex(w.overlaySelector()->findText(QStringLiteral("IO bytes")));
            w.batchSpin()->setValue(64);
            w.findChild<QAction*>(QStringLiteral("actionLeftToRight"))->setChecked(true);
            w.findChild<QAction*>(QStringLiteral("actionShowParams"))->setChecked(false);
            w.close();
        }
        {
            MainWindow again;
            QCOMPARE(again.modelSelector()->currentText(), QStringLiteral("costscope"));
            QCOMPARE(again.deviceSelector()->currentText(), QStringLiteral("Cuda"));
            QCOMPARE(again.overlaySelector()->currentText(), QStringLiteral("IO bytes"));
            QCOMPARE(again.batchSpin()->value(), 64);
            QCOMPARE(again.scene()->direction(), layout::Direction::LeftToRight);
            QVERIFY(!again.scene()->showParams());
        }
        QSettings().remove(QStringLiteral("view")); // the other tests start from the defaults
    }

    void costOverlayRecolours()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        // The real cost models live on other branches; a hand-made provider exercises the wiring.
        w.setCostProvider([](const Graph& g, const CostRequest& r) {
            auto cost = std::make_shared<GraphCost>();
            cost->model = r.model;
            cost->profile = r.device;
            for (std::size_t i = 0; i < g.nodes.size(); ++i) {
                NodeCost c;
                c.id = g.nodes[i].id;
                const double rank = r.device == "Cuda" ? static_cast<double>(g.nodes.size() - i) : static_cast<double>(i + 1);
                c.computeNs = 100 * rank * static_cast<double>(r.bindings.at("batch"));
                c.totalNs = c.computeNs;
                c.bytes = 64;
                cost->totalNs += c.totalNs;
                cost->nodes.push_back(c);
            }
            return std::shared_ptr<const GraphCost>(std::move(cost));
        });
        QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
        QVERIFY(costs.wait(30000));
        NodeItem* last = w.scene()->itemForNode(w.graph()->nodes.size() - 1);
        QVERIFY(last && last->heat().isValid());
        const QColor onCpu = last->heat();
        w.deviceSelector()->setCurrentText(QStringLiteral("Cuda"));
        QVERIFY(QTest::qWaitFor([&] { return last->heat() != onCpu; }, 30000));
        QCOMPARE(w.nodeTableModel()->index(0, NodeTableModel::Cost).data(NodeTableModel::SortRole).toDouble(),
                 100.0 * static_cast<double>(w.graph()->nodes.size()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
