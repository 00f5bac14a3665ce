// SPDX-License-Identifier: MIT
// The fusion report's reasons for what RLX leaves unfused: each pattern built in code, fusable and not.
#include "analysis/missed_fusions.h"
#include "edit/graph_builder.h"

#include <QtTest>

using namespace costscope;
using edit::GraphBuilder;
using R = MissedFusionReason;

namespace {

struct Linear {
    GraphBuilder b{"linear"};
    NodeId x = b.leaf(OpKind::Input, "x", Shape::of({8, 16}));
    NodeId w = b.leaf(OpKind::Param, "w", Shape::of({16, 32}));
    NodeId mm = b.op(OpKind::MatMul, {x, w});
};

std::vector<std::pair<NodeId, R>> reasons(const Graph& g)
{
    std::vector<std::pair<NodeId, R>> out;
    for (const MissedFusion& m : missedFusions(g)) {
        if (m.hint.empty())
            return {};
        out.emplace_back(m.node, m.reason);
    }
    return out;
}

using Found = std::vector<std::pair<NodeId, R>>;

} // namespace

class TestMissedFusions : public QObject {
    Q_OBJECT
private slots:
    void matMulBiasGeluFuses()
    {
        Linear l;
        const NodeId bias = l.b.leaf(OpKind::Param, "bias", Shape::of({32}));
        const NodeId add = l.b.sub(OpKind::Binary, "Add", {l.mm, bias});
        const NodeId gelu = l.b.sub(OpKind::Activation, "Gelu", {add});
        QVERIFY(reasons(l.b.finish({gelu})).empty());
    }

    void productReadTwiceIsMultiConsumer()
    {
        Linear l;
        const NodeId bias = l.b.leaf(OpKind::Param, "bias", Shape::of({32}));
        const NodeId add = l.b.sub(OpKind::Binary, "Add", {l.mm, bias});
        const NodeId relu = l.b.sub(OpKind::Activation, "Relu", {l.mm});
        QCOMPARE(reasons(l.b.finish({add, relu})), (Found{{l.mm, R::MultiConsumer}}));
    }

    void scaledProductIsNonAddBiasConsumer()
    {
        Linear l;
        const NodeId scale = l.b.leaf(OpKind::Param, "scale", Shape::of({32}));
        const NodeId mul = l.b.sub(OpKind::Binary, "Mul", {l.mm, scale});
        const Graph g = l.b.finish({mul});
        QCOMPARE(reasons(g), (Found{{l.mm, R::NonAddBiasConsumer}}));
        QVERIFY(QString::fromStdString(missedFusions(g).front().hint).contains(QStringLiteral("Mul with scale")));
    }

    void matrixBiasIsRankTooHigh()
    {
        Linear l;
        const NodeId bias = l.b.leaf(OpKind::Param, "bias", Shape::of({8, 32}));
        const NodeId add = l.b.sub(OpKind::Binary, "Add", {bias, l.mm});
        const Graph g = l.b.finish({add});
        QCOMPARE(reasons(g), (Found{{l.mm, R::BiasRankTooHigh}}));
        QCOMPARE(missedFusionName(R::BiasRankTooHigh), std::string_view("bias rank too high"));
    }

    void reluAfterBiasIsUnsupportedActivation()
    {
        Linear l;
        const NodeId bias = l.b.leaf(OpKind::Param, "bias", Shape::of({32}));
        const NodeId add = l.b.sub(OpKind::Binary, "Add", {l.mm, bias});
        const NodeId relu = l.b.sub(OpKind::Activation, "Relu", {add});
        const Graph g = l.b.finish({relu});
        QCOMPARE(reasons(g), (Found{{l.mm, R::UnsupportedActivation}}));
        QVERIFY(
            QString::fromStdString(missedFusions(g).front().hint).startsWith(QStringLiteral("Relu after the bias")));
    }

    void swiGlu_data()
    {
        QTest::addColumn<bool>("gateFirst");
        QTest::addColumn<bool>("sharedInput");
        QTest::newRow("fused") << true << true;
        QTest::newRow("order") << false << true;
        QTest::newRow("shared input") << true << false;
    }

    void swiGlu()
    {
        QFETCH(bool, gateFirst);
        QFETCH(bool, sharedInput);
        GraphBuilder b("swiglu");
        const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({8, 16}));
        const NodeId x2 = b.leaf(OpKind::Input, "x2", Shape::of({8, 16}));
        const NodeId wg = b.leaf(OpKind::Param, "w_gate", Shape::of({16, 32}));
        const NodeId wu = b.leaf(OpKind::Param, "w_up", Shape::of({16, 32}));
        const NodeId gate = b.op(OpKind::MatMul, {x, wg});
        const NodeId up = b.op(OpKind::MatMul, {sharedInput ? x : x2, wu});
        const NodeId silu = b.sub(OpKind::Activation, "Silu", {gate});
        const NodeId mul = b.sub(OpKind::Binary, "Mul", gateFirst ? std::vector{silu, up} : std::vector{up, silu});
        Found expected;
        if (!gateFirst)
            expected.emplace_back(mul, R::SwiGluOrder);
        if (!sharedInput)
            expected.emplace_back(mul, R::SwiGluSharedInput);
        QCOMPARE(reasons(b.finish({mul})), expected);
    }

    void fourProjectionsOfOneInputAreTooMany()
    {
        for (int count : {3, 4}) {
            GraphBuilder b("shared");
            const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({8, 16}));
            std::vector<NodeId> outs;
            for (int i = 0; i < count; ++i)
                outs.push_back(
                    b.op(OpKind::MatMul, {x, b.leaf(OpKind::Param, "w" + std::to_string(i), Shape::of({16, 32}))}));
            Found expected;
            if (count > 3)
                for (NodeId mm : outs)
                    expected.emplace_back(mm, R::SharedMatMulCount);
            QCOMPARE(reasons(b.finish(outs)), expected);
        }
    }
};

QTEST_APPLESS_MAIN(TestMissedFusions)
#include "test_missed_fusions.moc"
