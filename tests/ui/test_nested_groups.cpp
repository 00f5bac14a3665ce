// SPDX-License-Identifier: MIT
// Scope groups several levels deep (tiny_transformer: h → h/1 → h/1/attn): Collapse All from the canvas menu shows
// the outermost groups, each double-click opens one level, the context menu opens a group fully, and collapsing an
// outer group again hides what was opened inside it. What each box stands for is read back from the scene.
#include "canvas/group_frames.h"
#include "canvas_driving.h"
#include "test_paths.h"
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>
#include <algorithm>

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

    // Open groups are framed: a labelled frame around each open group's boxes, nested inside its parent's; a
    // collapsed group has none, and double-clicking a frame collapses its group.
    void openGroupsAreFramed()
    {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        const GroupTree& tree = w.scene()->groups();
        const auto frames = [&w] {
            std::vector<const GroupFrameItem*> out;
            for (QGraphicsItem* item : w.scene()->items())
                if (item->type() == GroupFrameItem::Type)
                    out.push_back(static_cast<const GroupFrameItem*>(item));
            return out;
        };
        const auto framesOf = [&](const std::string& path) {
            std::vector<QRectF> out;
            for (const GroupFrameItem* f : frames())
                if (f->frame().group == tree.find(path))
                    out.push_back(f->frame().rect);
            return out;
        };
        for (const char* path : {"h", "h/1", "h/1/attn", "h/0/mlp"}) {
            const auto rects = framesOf(path);
            QVERIFY2(!rects.empty(), path);
            // Every member's box lies in one of the group's frames; each frame lies in one of its parent's.
            for (std::size_t node : tree.groups[static_cast<std::size_t>(tree.find(path))].allNodes)
                if (const NodeItem* box = w.scene()->itemForNode(node))
                    QVERIFY2(std::any_of(rects.begin(), rects.end(),
                                         [&](const QRectF& r) { return r.contains(box->sceneBoundingRect()); }),
                             path);
            const int parent = tree.groups[static_cast<std::size_t>(tree.find(path))].parent;
            if (parent > 0)
                for (const QRectF& r : rects) {
                    const auto outer = framesOf(tree.groups[static_cast<std::size_t>(parent)].path);
                    QVERIFY2(std::any_of(outer.begin(), outer.end(), [&](const QRectF& o) { return o.contains(r); }),
                             path);
                }
        }
        const auto all = frames();
        QVERIFY(std::any_of(all.begin(), all.end(),
                            [](const GroupFrameItem* f) { return f->frame().label == QLatin1String("attn"); }));

        // Double-clicking the frame of h/1/attn (beside its boxes) collapses that group: one box, no frame.
        const QRectF attnFrame = framesOf("h/1/attn").front();
        const QPointF onFrame(attnFrame.left() + 4, attnFrame.top() + 4);
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.canvas()->centerOn(onFrame);
        QTest::mouseDClick(w.canvas()->viewport(), Qt::LeftButton, Qt::NoModifier, w.canvas()->mapFromScene(onFrame));
        QVERIFY(ready.wait(30000));
        QVERIFY(framesOf("h/1/attn").empty());
        QCOMPARE(shownAs(w, memberOf(w, "h/1/attn")), std::string("h/1/attn"));
        QVERIFY(!framesOf("h/1").empty());

        // Collapse All: only the outermost boxes, no frame at all.
        w.findChild<QAction*>(QStringLiteral("actionCollapseAll"))->trigger();
        QVERIFY(ready.wait(30000));
        QVERIFY(frames().empty());
    }
};

QTEST_MAIN(TestNestedGroups)
#include "test_nested_groups.moc"
