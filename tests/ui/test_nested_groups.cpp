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
#include <cmath>

using namespace costscope;
using test::openAndWait;
using test::showAndOpen;
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

// Of a path's filled area (touching outlines intersect in a path of none).
double area(const QPainterPath& path)
{
    double sum = 0;
    for (const QPolygonF& polygon : path.toFillPolygons())
        for (qsizetype k = 0; k + 1 < polygon.size(); ++k)
            sum += polygon[k].x() * polygon[k + 1].y() - polygon[k + 1].x() * polygon[k].y();
    return std::abs(sum) / 2;
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
        QVERIFY(showAndOpen(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
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

        // Double-clicking the frame of h/1/attn (on its label, where an edge passes) collapses that group: one box, no
        // frame.
        const GroupFrameItem* attn = *std::find_if(
            all.begin(), all.end(), [&](const GroupFrameItem* f) { return f->frame().group == tree.find("h/1/attn"); });
        QVERIFY(!attn->frame().labelRect.isEmpty());
        const QPointF onFrame = attn->frame().labelRect.center(); // on its label
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

    // Frames of sibling groups (neither inside the other) never overlap, not even where the layout interleaves two
    // consecutive blocks (inception_4a's weights sink into the rows where inception_3b ends): each frame follows its
    // members row by row instead of taking their bounding rectangle.
    void siblingFramesDoNotOverlap_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("cnn") << test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
        QTest::newRow("tiny transformer")
            << test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"));
        QTest::newRow("gpt2 tiny") << test::testDataPath(QStringLiteral("hf/gpt2_tiny_fp32.onnx"));
        QTest::newRow("inception v1") << test::sharedPath(QStringLiteral("data/onnx/light/light_inception_v1.onnx"));
    }

    void siblingFramesDoNotOverlap()
    {
        QFETCH(QString, file);
        COSTSCOPE_REQUIRE_SHARED_FILE(file);
        MainWindow w;
        QVERIFY(showAndOpen(w, file));
        const GroupTree& tree = w.scene()->groups();
        auto within = [&](int inner, int outer) {
            for (int g = inner; g > 0; g = tree.groups[static_cast<std::size_t>(g)].parent)
                if (g == outer)
                    return true;
            return false;
        };
        std::vector<const GroupFrameItem*> frames;
        for (QGraphicsItem* item : w.scene()->items())
            if (item->type() == GroupFrameItem::Type)
                frames.push_back(static_cast<const GroupFrameItem*>(item));
        QVERIFY(!frames.empty());
        int pairs = 0;
        for (std::size_t i = 0; i < frames.size(); ++i)
            for (std::size_t j = i + 1; j < frames.size(); ++j) {
                const int a = frames[i]->frame().group, b = frames[j]->frame().group;
                if (within(a, b) || within(b, a))
                    continue;
                ++pairs;
                const QPainterPath both = frames[i]->shape().intersected(frames[j]->shape());
                const QRectF common = both.boundingRect();
                QVERIFY2(area(both) < 1, qPrintable(QStringLiteral("frames of %1 and %2 overlap in %3x%4 at %5,%6")
                                                        .arg(frames[i]->frame().label, frames[j]->frame().label)
                                                        .arg(common.width())
                                                        .arg(common.height())
                                                        .arg(common.left())
                                                        .arg(common.top())));
            }
        qInfo("%d frames, %d sibling pairs apart", static_cast<int>(frames.size()), pairs);
    }
};

QTEST_MAIN(TestNestedGroups)
#include "test_nested_groups.moc"
