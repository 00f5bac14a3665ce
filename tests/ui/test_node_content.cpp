// SPDX-License-Identifier: MIT
// What node boxes and edge tooltips say: leaf styles, unknown ops, key attributes, tensor bytes.
#include "canvas/node_content.h"
#include <QtTest>

using namespace costscope;

namespace {

Graph sample()
{
    Graph g;
    Node x;
    x.id = 0;
    x.op = Op::make(OpKind::Input);
    x.op.attrs.set("name", std::string("x"));
    x.shape = Shape::of({2, 3, 8, 8});
    g.add(x);
    Node w;
    w.id = 1;
    w.op = Op::make(OpKind::Param);
    w.op.attrs.set("name", std::string("c1.weight"));
    w.shape = Shape::of({4, 3, 3, 3});
    g.add(w);
    Node conv;
    conv.id = 2;
    conv.op = Op::make(OpKind::Conv);
    conv.op.attrs.set("kernel_size", std::vector<std::int64_t>{3, 3});
    conv.op.attrs.set("groups", std::int64_t{1});
    conv.inputs = {0, 1};
    conv.shape = Shape::of({2, 4, 8, 8});
    g.add(conv);
    Node odd;
    odd.id = 3;
    odd.op = Op::unknown("FancyOp", R"({"k": 1})");
    odd.inputs = {2};
    odd.shape = Shape{{Dim::named("batch"), Dim::fixed(4)}, DType::F16};
    g.add(odd);
    return g;
}

} // namespace

class TestNodeContent : public QObject {
    Q_OBJECT
private slots:
    void stylesAndText()
    {
        const Graph g = sample();
        const auto input = nodeContent(g, 0);
        QCOMPARE(input.style, NodeItem::Style::Input);
        QVERIFY(input.title.contains(QStringLiteral("x")));
        QCOMPARE(nodeContent(g, 1).style, NodeItem::Style::Param);
        QCOMPARE(nodeContent(g, 1).title, QStringLiteral("c1.weight"));
        const auto conv = nodeContent(g, 2);
        QCOMPARE(conv.style, NodeItem::Style::Op);
        QCOMPARE(conv.title, QStringLiteral("Conv"));
        QVERIFY(conv.detail.contains(QStringLiteral("kernel_size=")));
        QCOMPARE(conv.shape, QString::fromStdString(g.nodes[2].shape.toString()));
        const auto odd = nodeContent(g, 3);
        QCOMPARE(odd.style, NodeItem::Style::Unknown);
        QCOMPARE(odd.title, QStringLiteral("FancyOp"));
        QVERIFY(opClassColour(OpClass::Unknown) != opClassColour(OpClass::Conv));
    }

    void edgeTooltipNamesBytes()
    {
        const Graph g = sample();
        QVERIFY(edgeTooltip(g, 0, 1).contains(QStringLiteral("1.5 KiB"))); // 2·3·8·8 floats
        QVERIFY(edgeTooltip(g, 3, 1).contains(QStringLiteral("symbols")));
        QVERIFY(edgeTooltip(g, 2, 3).contains(QStringLiteral("+2 more")));
    }

    void groupBoxShowsAggregate()
    {
        GroupTree::Group grp;
        grp.path = "h/0/attn";
        grp.label = "attn";
        const auto plain = groupContent(grp, GroupAggregate{12});
        QCOMPARE(plain.style, NodeItem::Style::Group);
        QVERIFY(plain.detail.contains(QStringLiteral("12 nodes")));
        GroupAggregate a{12, true, 2.5e6, 4096, 2};
        const auto costed = groupContent(grp, a);
        QVERIFY(costed.detail.contains(QStringLiteral("2.50 ms")));
        QVERIFY(costed.detail.contains(QStringLiteral("4.0 KiB")));
        QVERIFY(costed.detail.contains(QStringLiteral("2 sync")));
    }
};

QTEST_GUILESS_MAIN(TestNodeContent)
#include "test_node_content.moc"
