// SPDX-License-Identifier: MIT
// Two runs side by side: nodes matched by id, in the later run's order, only those both runs timed.
#include "run_delta.h"

#include <QtTest>

using namespace costscope;

namespace {
RunComparison runOf(std::int64_t medianNs, std::vector<std::pair<NodeId, double>> timed)
{
    RunComparison run;
    run.whole.medianNs = medianNs;
    for (std::size_t i = 0; i < timed.size(); ++i)
        run.nodes.push_back(
            {i, timed[i].first, "Op" + std::to_string(timed[i].first), OpClass::Unknown, timed[i].second});
    return run;
}
} // namespace

class TestRunDelta : public QObject {
    Q_OBJECT
private slots:
    void matchesNodesById()
    {
        const RunDelta d =
            compareRuns(runOf(1000, {{1, 100}, {2, 200}, {3, 300}}), runOf(1500, {{3, 600}, {4, 50}, {2, 100}}));
        QCOMPARE(d.beforeWholeNs, 1000.0);
        QCOMPARE(d.afterWholeNs, 1500.0);
        QCOMPARE(d.nodes.size(), std::size_t(2));
        QCOMPARE(d.nodes[0].id, NodeId(3));
        QCOMPARE(d.nodes[0].nodeIndex, std::size_t(0));
        QCOMPARE(d.nodes[0].beforeNs, 300.0);
        QCOMPARE(d.nodes[0].afterNs, 600.0);
        QCOMPARE(d.nodes[1].id, NodeId(2));
        QCOMPARE(d.nodes[1].label, std::string("Op2"));
        QCOMPARE(d.nodes[1].beforeNs, 200.0);
        QCOMPARE(d.nodes[1].afterNs, 100.0);
    }
};

QTEST_GUILESS_MAIN(TestRunDelta)
#include "test_run_delta.moc"
