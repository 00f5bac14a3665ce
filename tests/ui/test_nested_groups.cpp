// SPDX-License-Identifier: MIT
// Scope groups several levels deep (tiny_transformer: h → h/1 → h/1/attn): Collapse All from the canvas menu shows
// the outermost groups, each double-click opens one level, the context menu opens a group fully, and collapsing an
// outer group again hides what was opened inside it. What each box stands for is read back from the scene.
#include "canvas_driving.h"
#include "test_paths.h"
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace costscope;
using test::openAndWait;
using test::triggerContextEntry;

namespace {
// The group a node's box stands for ("" when the node has its own box).
std::string shownAs(const MainWindow& w, std::size_t node)
{
    const NodeItem* item = w.scene()->itemForNode(node);
    if (!item)
        return "<hidden>";
    const auto& unit = w.scene()->viewGraph().units[static_cast<std::size_t>(item->unit())];
    return unit.isGroup ? w.scene()->groups().groups[static_cast<std::size_t>(unit.group)].path : std::string();
}

// The first node inside the group at `path`.
std::size_t memberOf(const MainWindow& w, const std::string& path)
{
    const int group = w.scene()->groups().find(path);
    return w.scene()->groups().groups[static_cast<std::size_t>(group)].allNodes.front();
}

bool doubleClickBoxOf(MainWindow& w, std::size_t node)
{
    NodeItem* box = w.scene()->itemForNode(node);
    if (!box)
        return false;
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    w.canvas()->centerOn(box);
    QTest::mouseDClick(w.canvas()->viewport(), Qt::LeftButton, Qt::NoModifier, w.canvas()->mapFromScene(box->pos()));
    return ready.wait(30000);
}

} // namespace

class TestNestedGroups : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void opensOneLevelAtATime()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        const GroupTree& tree = w.scene()->groups();
        QVERIFY(tree.find("h/1/attn") > 0);
        QCOMPARE(tree.groups[static_cast<std::size_t>(tree.find("h/1/attn"))].depth, 3);
        const std::size_t attn = memberOf(w, "h/1/attn");
        QCOMPARE(shownAs(w, attn), std::string()); // a small graph opens with every group open

        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.findChild<QAction*>(QStringLiteral("actionCollapseAll"))->trigger();
        QVERIFY(ready.wait(30000));
        QCOMPARE(shownAs(w, attn), std::string("h"));
        QCOMPARE(shownAs(w, memberOf(w, "h/0/mlp")), std::string("h"));
        const int outermost = w.scene()->visibleNodeItemCount();

        // Each double-click opens one level: the block's subgroups show as boxes of their own.
        QVERIFY(doubleClickBoxOf(w, attn));
        QCOMPARE(shownAs(w, attn), std::string("h/1"));
        QCOMPARE(shownAs(w, memberOf(w, "h/0/mlp")), std::string("h/0"));
        QVERIFY(doubleClickBoxOf(w, attn));
        QCOMPARE(shownAs(w, attn), std::string("h/1/attn"));
        QCOMPARE(shownAs(w, memberOf(w, "h/1/mlp")), std::string("h/1/mlp"));
        QCOMPARE(shownAs(w, memberOf(w, "h/0/attn")), std::string("h/0"));
        QVERIFY(doubleClickBoxOf(w, attn));
        QCOMPARE(shownAs(w, attn), std::string());
        NodeItem* own = w.scene()->itemForNode(attn);
        QVERIFY(own && own->style() != NodeItem::Style::Group);

        // Collapsing the outermost group again shows one box for all of it; reopened, it shows what was open inside.
        QVERIFY(triggerContextEntry(w, attn, QStringLiteral("Collapse group h")));
        QCOMPARE(shownAs(w, attn), std::string("h"));
        QCOMPARE(w.scene()->visibleNodeItemCount(), outermost);
        QVERIFY(doubleClickBoxOf(w, attn));
        QCOMPARE(shownAs(w, attn), std::string());
        QCOMPARE(shownAs(w, memberOf(w, "h/0/attn")), std::string("h/0"));

        // "Expand group … fully" opens every level below.
        QVERIFY(triggerContextEntry(w, memberOf(w, "h/0/attn"), QStringLiteral("Expand group h/0 fully")));
        for (const char* path : {"h/0/attn", "h/0/mlp", "h/0/mlp/fc1", "h/0/ln1"})
            QCOMPARE(shownAs(w, memberOf(w, path)), std::string());
        QCOMPARE(shownAs(w, memberOf(w, "h/1/mlp")), std::string("h/1/mlp")); // another block keeps its state
    }
};

QTEST_MAIN(TestNestedGroups)
#include "test_nested_groups.moc"
