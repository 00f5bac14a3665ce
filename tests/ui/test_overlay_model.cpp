// SPDX-License-Identifier: MIT
// OverlayModel on a hand-made GraphCost: log colour scale, modes, dominant term, sync badges, aggregates, and the
// Measured mode on hand-made run times (kept only for the graph they were measured on).
#include "canvas/legend_widget.h"
#include "canvas/overlay_model.h"
#include <QtTest>

using namespace costscope;

namespace {

std::shared_ptr<const Graph> chain(int n)
{
    auto g = std::make_shared<Graph>();
    for (int i = 0; i < n; ++i) {
        Node node;
        node.id = i;
        node.op = i == 0 ? Op::make(OpKind::Input) : Op::make(OpKind::MatMul);
        node.inputs = i == 0 ? std::vector<NodeId>{} : std::vector<NodeId>{i - 1, i - 1};
        g->add(std::move(node));
    }
    return g;
}

std::shared_ptr<const GraphCost> costs()
{
    auto c = std::make_shared<GraphCost>();
    const double totals[] = {10, 100, 1000, 100000};
    for (int i = 0; i < 4; ++i) {
        NodeCost n;
        n.id = i;
        n.totalNs = totals[i];
        n.computeNs = i == 1 ? totals[i] : 0;
        n.memoryNs = i == 2 ? totals[i] : 0;
        n.syncNs = i == 3 ? totals[i] : 0;
        n.dispatchNs = i == 0 ? totals[i] : 0;
        n.bytes = static_cast<std::uint64_t>(i) * 1000;
        c->nodes.push_back(n);
    }
    c->totalNs = 101110;
    return c;
}

double darkness(const QColor& c) { return 1.0 - c.lightnessF(); }

} // namespace

class TestOverlayModel : public QObject {
    Q_OBJECT
private slots:
    void inactiveWithoutCost()
    {
        OverlayModel m;
        m.setGraph(chain(4));
        QVERIFY(!m.active());
        QVERIFY(!m.colour(0).isValid());
        QVERIFY(m.badge(3).isEmpty());
    }

    void logScaleOrdersColours()
    {
        OverlayModel m;
        m.setGraph(chain(4));
        m.setCost(costs());
        m.setMode(OverlayMode::Cost);
        QVERIFY(m.active());
        QCOMPARE(m.minValue(), 10.0);
        QCOMPARE(m.maxValue(), 100000.0);
        QVERIFY(darkness(m.colour(0)) < darkness(m.colour(1)));
        QVERIFY(darkness(m.colour(1)) < darkness(m.colour(2)));
        QVERIFY(darkness(m.colour(2)) < darkness(m.colour(3)));
        // Log scale: 10 → 100 → 1000 are equal steps, so the middle colour sits between the ends evenly.
        QCOMPARE(m.colourForValue(1000), m.colour(2));
        QCOMPARE(m.colour(3), OverlayModel::heat(1.0));
    }

    void ioBytesModeUsesBytes()
    {
        OverlayModel m;
        m.setGraph(chain(4));
        m.setCost(costs());
        m.setMode(OverlayMode::IoBytes);
        QCOMPARE(*m.value(2), 2000.0);
        QCOMPARE(m.minValue(), 1000.0);
        QCOMPARE(m.maxValue(), 3000.0);
    }

    void dominantTermAndSync()
    {
        OverlayModel m;
        m.setGraph(chain(4));
        m.setCost(costs());
        m.setMode(OverlayMode::Dominant);
        QCOMPARE(*m.dominantTerm(0), OverlayModel::Term::Dispatch);
        QCOMPARE(*m.dominantTerm(1), OverlayModel::Term::Compute);
        QCOMPARE(*m.dominantTerm(2), OverlayModel::Term::Memory);
        QCOMPARE(m.colour(3), OverlayModel::termColour(OverlayModel::Term::Sync));
        QCOMPARE(m.badge(3), QStringLiteral("SYNC"));
        QVERIFY(m.badge(1).isEmpty());
        m.setMode(OverlayMode::SyncPoints);
        QCOMPARE(m.colour(3), OverlayModel::termColour(OverlayModel::Term::Sync));
        QVERIFY(m.colour(1) != m.colour(3));
    }

    void aggregateSumsMembers()
    {
        OverlayModel m;
        m.setGraph(chain(4));
        m.setCost(costs());
        const GroupAggregate a = m.aggregate({1, 2, 3});
        QCOMPARE(a.nodes, std::size_t(3));
        QVERIFY(a.hasCost);
        QCOMPARE(a.costNs, 101100.0);
        QCOMPARE(a.ioBytes, std::uint64_t(6000));
        QCOMPARE(a.syncPoints, 1);
    }

    void skippedNodesHaveNoColour()
    {
        auto c = std::make_shared<GraphCost>(*costs());
        c->nodes[1].skipped = true;
        OverlayModel m;
        m.setGraph(chain(4));
        m.setCost(c);
        QVERIFY(!m.value(1));
        QVERIFY(!m.colour(1).isValid());
    }

    void measuredModeColoursByMeasuredTime()
    {
        const auto g = chain(4);
        OverlayModel m;
        m.setGraph(g);
        m.setCost(costs());
        m.setMode(OverlayMode::Measured);
        QVERIFY(!m.active()); // predicted costs alone do not make a Measured overlay
        QVERIFY(!m.colour(2).isValid());
        // Measured times order the nodes the other way round from the predictions.
        m.setMeasured(g, {std::nullopt, 5000.0, 500.0, 50.0});
        QVERIFY(m.active());
        QVERIFY(!m.value(0));
        QCOMPARE(*m.value(1), 5000.0);
        QCOMPARE(m.minValue(), 50.0);
        QCOMPARE(m.maxValue(), 5000.0);
        QVERIFY(!m.colour(0).isValid());
        QVERIFY(darkness(m.colour(3)) < darkness(m.colour(2)));
        QVERIFY(darkness(m.colour(2)) < darkness(m.colour(1)));
        const GroupAggregate a = m.aggregate({0, 1, 2});
        QVERIFY(a.hasCost);
        QCOMPARE(a.costNs, 5500.0);
        // Back to Cost: the predictions again.
        m.setMode(OverlayMode::Cost);
        QCOMPARE(*m.value(1), 100.0);
        QCOMPARE(m.aggregate({0, 1, 2}).costNs, 1110.0);
    }

    void measuredTimesOfAnotherGraphAreDropped()
    {
        const auto g = chain(4);
        OverlayModel m;
        m.setGraph(g);
        m.setMode(OverlayMode::Measured);
        m.setMeasured(chain(4), {1.0, 2.0, 3.0, 4.0}); // an equal graph, but not the open one
        QVERIFY(!m.hasMeasured());
        m.setMeasured(g, {1.0, 2.0, 3.0, 4.0});
        QVERIFY(m.active());
        m.setGraph(g); // the same graph again keeps them
        QVERIFY(m.hasMeasured());
        m.setGraph(chain(4)); // a new graph drops them
        QVERIFY(!m.hasMeasured());
        QVERIFY(!m.active());
        QVERIFY(!m.value(1));
    }

    // A launch-bound device: every node takes 4.0 to 4.4 µs. The auto scale spans at least 10× about the middle,
    // so the extremes share a colour instead of running from pale to red (fake hotspots).
    void narrowSpreadDoesNotFakeHotspots()
    {
        auto c = std::make_shared<GraphCost>();
        for (double ns : {4000.0, 4100.0, 4250.0, 4400.0}) {
            NodeCost n;
            n.id = static_cast<NodeId>(c->nodes.size());
            n.totalNs = n.dispatchNs = ns;
            c->nodes.push_back(n);
        }
        OverlayModel m;
        m.setGraph(chain(4));
        m.setCost(c);
        QCOMPARE(m.minValue(), 4000.0);
        QCOMPARE(m.maxValue(), 4400.0);
        QVERIFY(m.scaleMin() < 4000.0 && m.scaleMax() > 4400.0);
        QVERIFY(std::abs(m.scaleMax() / m.scaleMin() - kMinHeatSpan) < 1e-9);
        QVERIFY2(darkness(m.colour(3)) - darkness(m.colour(0)) < 0.05,
                 qPrintable(QStringLiteral("%1 vs %2").arg(m.colour(0).name(), m.colour(3).name())));
        QVERIFY(m.colour(0) != OverlayModel::heat(0.08) && m.colour(3) != OverlayModel::heat(1.0));

        // A real spread keeps the nodes' own range.
        m.setCost(costs());
        QCOMPARE(m.scaleMin(), 10.0);
        QCOMPARE(m.scaleMax(), 100000.0);
    }

    // Absolute: fixed ends, so that a node's colour depends on its own value only.
    void absoluteScaleComparesAcrossGraphs()
    {
        OverlayModel m;
        m.setGraph(chain(4));
        m.setScale(HeatScale::Absolute);
        m.setCost(costs());
        QCOMPARE(m.scaleMin(), 100.0);
        QCOMPARE(m.scaleMax(), 1e8);
        const QColor micro = m.colourForValue(1000);
        QCOMPARE(m.colour(2), micro);
        QCOMPARE(m.colour(0), OverlayModel::heat(0.08)); // 10 ns is below the scale: clamped, not extrapolated
        auto other = std::make_shared<GraphCost>(*costs());
        other->nodes[3].totalNs = 5e7;
        m.setCost(other);
        QCOMPARE(m.colourForValue(1000), micro);
        m.setMode(OverlayMode::IoBytes);
        QCOMPARE(m.scaleMin(), 1024.0);
        QCOMPARE(m.scaleMax(), 1024.0 * 1024 * 1024);
        m.setScale(HeatScale::Auto);
        QCOMPARE(m.scaleMax(), 3000.0 * std::sqrt(kMinHeatSpan) / std::sqrt(3.0));
    }

    // The key shows the colour scale's ends, and swatches (not "0 ns … 0 ns") for the sync points.
    void legendSaysWhatTheColoursMean()
    {
        OverlayModel m;
        m.setGraph(chain(4));
        LegendWidget legend;
        legend.setOverlay(&m);
        QCOMPARE(legend.text(), QStringLiteral("No cost overlay"));
        m.setCost(costs());
        QCOMPARE(legend.text(), QStringLiteral("10 ns … 100.0 µs"));
        m.setMode(OverlayMode::SyncPoints);
        QCOMPARE(legend.text(), QStringLiteral("sync point | no sync point"));
        m.setMode(OverlayMode::Dominant);
        QCOMPARE(legend.text(), QStringLiteral("compute | memory | dispatch | sync"));
        m.setMode(OverlayMode::Cost);
        m.setScale(HeatScale::Absolute);
        QCOMPARE(legend.text(), QStringLiteral("100 ns … 100.00 ms"));
        legend.resize(360, 26);
        legend.refresh();
        QVERIFY(legend.toolTip().contains(QStringLiteral("10 ns … 100.0 µs")));
        legend.grab(); // paints every branch without a crash
    }

    void formatting()
    {
        QCOMPARE(formatNs(1500), QStringLiteral("1.5 µs"));
        QCOMPARE(formatNs(2.5e6), QStringLiteral("2.50 ms"));
        QCOMPARE(formatBytes(512), QStringLiteral("512 B"));
        QCOMPARE(formatBytes(3 * 1024 * 1024), QStringLiteral("3.0 MiB"));
    }
};

QTEST_MAIN(TestOverlayModel)
#include "test_overlay_model.moc"
