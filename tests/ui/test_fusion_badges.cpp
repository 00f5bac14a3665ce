// SPDX-License-Identifier: MIT
// Missed-fusion badges on the canvas: a graph with a MatMul whose bias is a matrix and one whose bias is followed by
// Relu, opened in the window; the badges, tooltips and a collapsed group's count are read back from the items.
#include "canvas/fusion_badges.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "edit/graph_builder.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;
using edit::GraphBuilder;

namespace {
struct TwoLinears {
    Graph graph;
    NodeId matrixBiased = 0; // MatMul + Add of an [8, 32] bias
    NodeId reluAfter = 0;    // MatMul + Add + Relu
    NodeId fused = 0;        // MatMul + Add + Gelu: fuses
};

TwoLinears twoLinears()
{
    GraphBuilder b("linears");
    TwoLinears t;
    const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({8, 16}));
    const std::string scope = "block";
    auto linear = [&](const std::string& name, Shape bias) {
        const NodeId w = b.leaf(OpKind::Param, name + ".w", Shape::of({16, 32}), scope);
        const NodeId bb = b.leaf(OpKind::Param, name + ".b", std::move(bias), scope);
        const NodeId mm = b.op(OpKind::MatMul, {x, w}, scope);
        return std::pair(mm, b.sub(OpKind::Binary, "Add", {mm, bb}, scope));
    };
    const auto [m1, a1] = linear("first", Shape::of({8, 32}));
    const auto [m2, a2] = linear("second", Shape::of({32}));
    const auto [m3, a3] = linear("third", Shape::of({32}));
    const NodeId relu = b.sub(OpKind::Activation, "Relu", {a2}, scope);
    const NodeId gelu = b.sub(OpKind::Activation, "Gelu", {a3}, scope);
    t.matrixBiased = m1;
    t.reluAfter = m2;
    t.fused = m3;
    t.graph = b.finish({a1, relu, gelu});
    return t;
}

std::size_t indexOf(const Graph& g, NodeId id)
{
    return *g.indexOf(id);
}
} // namespace

class TestFusionBadges : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void hintsNameTheReason()
    {
        const TwoLinears t = twoLinears();
        const auto hints = fusionBadgeHints(t.graph);
        QCOMPARE(hints.size(), std::size_t(2));
        QVERIFY(QString::fromStdString(hints.at(t.matrixBiased)).startsWith(QStringLiteral("bias rank too high: ")));
        QVERIFY(QString::fromStdString(hints.at(t.reluAfter))
                    .startsWith(QStringLiteral("unsupported epilogue activation: Relu")));
        QVERIFY(!hints.count(t.fused));
    }

    void canvasShowsBadgesWithTheHint()
    {
        QTemporaryDir dir;
        const TwoLinears t = twoLinears();
        const QString path = dir.filePath(QStringLiteral("linears.costscope"));
        QVERIFY(saveGraphFile(t.graph, path.toStdString()));
        MainWindow w;
        w.show();
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.openFile(path);
        QVERIFY(ready.wait(60000));
        w.scene()->expandAll();
        QVERIFY(ready.wait(60000));
        const Graph& g = *w.graph();
        NodeItem* biased = w.scene()->itemForNode(indexOf(g, t.matrixBiased));
        NodeItem* relu = w.scene()->itemForNode(indexOf(g, t.reluAfter));
        NodeItem* fused = w.scene()->itemForNode(indexOf(g, t.fused));
        QVERIFY(biased && relu && fused);
        QVERIFY(biased != relu && biased != fused); // their own boxes, not a group's
        QVERIFY(biased->fusionHint().startsWith(QStringLiteral("bias rank too high")));
        QVERIFY(biased->fusionHint().contains(QStringLiteral("first.b")));
        QVERIFY(biased->toolTip().contains(QStringLiteral("Missed fusion: bias rank too high")));
        QVERIFY(relu->fusionHint().contains(QStringLiteral("Relu")));
        QVERIFY(fused->fusionHint().isEmpty());
        QVERIFY(!fused->toolTip().contains(QStringLiteral("Missed fusion")));

        // Collapsed, a group (one per layer: "first.w" names the scope "first") says how many of its members missed a
        // fusion.
        w.scene()->collapseAll();
        QVERIFY(ready.wait(60000));
        NodeItem* group = w.scene()->itemForNode(indexOf(g, t.matrixBiased));
        QVERIFY(group);
        QCOMPARE(group->style(), NodeItem::Style::Group);
        QCOMPARE(group->fusionHint(), QStringLiteral("1 missed fusion(s) inside"));
        NodeItem* fusedGroup = w.scene()->itemForNode(indexOf(g, t.fused));
        QVERIFY(fusedGroup && fusedGroup != group);
        QCOMPARE(fusedGroup->style(), NodeItem::Style::Group);
        QVERIFY(fusedGroup->fusionHint().isEmpty());
    }
};

QTEST_MAIN(TestFusionBadges)
#include "test_fusion_badges.moc"
