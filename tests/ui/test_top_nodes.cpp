// SPDX-License-Identifier: MIT
// The Top nodes dock: the costliest nodes by prediction or measurement with their shares, sortable, and a click
// selects the node on the canvas. The item model runs under QAbstractItemModelTester.
#include "analysis/rlx_profiles.h"
#include "canvas/graph_scene.h"
#include "formats/graph_file.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "panels/top_nodes_model.h"
#include "panels/top_nodes_panel.h"
#include "panels/value_items.h"
#include "test_paths.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
QString cnn()
{
    return sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
}

std::shared_ptr<const Graph> loadCnn()
{
    auto loaded = loadGraphFile(cnn().toStdString());
    return loaded ? std::make_shared<const Graph>(loaded->graph) : nullptr;
}

std::shared_ptr<const GraphCost> cpuCost(const Graph& g)
{
    const auto set = rlxProfileSet("rlx-linux");
    return std::make_shared<const GraphCost>(makeCostModel("rlx")->estimate(g, *findProfile(set, Device::Cpu)));
}

double cell(const QAbstractItemModel* m, int row, int column)
{
    return m->index(row, column).data(TopNodesModel::SortRole).toDouble();
}
} // namespace

class TestTopNodes : public QObject {
    Q_OBJECT
private slots:
    void listsTheCostliestWithTheirShares()
    {
        const auto graph = loadCnn();
        QVERIFY(graph);
        const auto cost = cpuCost(*graph);
        TopNodesPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(panel.view()->model(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.countSpin()->setValue(5);
        panel.setCost(graph, cost);
        const TopNodesModel* m = panel.model();
        QCOMPARE(m->rowCount(), 5);
        double sum = 0, highest = 0;
        for (const NodeCost& c : cost->nodes) {
            sum += c.skipped ? 0 : c.totalNs;
            highest = std::max(highest, c.totalNs);
        }
        QCOMPARE(cell(m, 0, TopNodesModel::Predicted), highest);
        QVERIFY(qFuzzyCompare(cell(m, 0, TopNodesModel::PredictedShare), highest / sum));
        for (int r = 1; r < 5; ++r) {
            QVERIFY(cell(m, r, TopNodesModel::Predicted) <= cell(m, r - 1, TopNodesModel::Predicted));
            QVERIFY(cell(m, r, TopNodesModel::Cumulative) >= cell(m, r - 1, TopNodesModel::Cumulative));
        }
        const auto node = *graph->indexOf(m->index(0, 0).data(TopNodesModel::NodeIdRole).toLongLong());
        QCOMPARE(m->index(0, TopNodesModel::OpLabel).data().toString(),
                 QString::fromStdString(graph->nodes[node].op.label()));
        // Nothing measured yet: no measured columns, and nothing to rank by but the prediction.
        QVERIFY(panel.view()->isColumnHidden(TopNodesModel::Measured));
        QVERIFY(!panel.rankingSelector()->isEnabled());
        panel.countSpin()->setValue(8);
        QCOMPARE(m->rowCount(), 8);
        // The op-class tab: one row per class, costliest first, their times summing to the whole.
        const auto classes = opClassShares(*graph, *cost);
        QTableWidget* byClass = panel.classTable();
        QCOMPARE(byClass->rowCount(), int(classes.size()));
        double classSum = 0;
        for (int r = 0; r < byClass->rowCount(); ++r)
            classSum += byClass->item(r, TopNodesPanel::ClassPredicted)->data(kTableValueRole).toDouble();
        QVERIFY(qFuzzyCompare(classSum, sum));
        QCOMPARE(byClass->item(0, TopNodesPanel::ClassName)->text(),
                 QString::fromLatin1(opClassName(classes[0].opClass).data()));
    }

    void ranksByTheMeasurementAfterARun()
    {
        const auto graph = loadCnn();
        QVERIFY(graph);
        TopNodesPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setCost(graph, cpuCost(*graph));
        // Measured: the later a node, the slower (the reverse of no ranking in particular).
        std::vector<std::optional<double>> measured(graph->nodes.size());
        for (std::size_t i = 0; i < measured.size(); ++i)
            if (graph->nodes[i].op.kind != OpKind::Input && graph->nodes[i].op.kind != OpKind::Param)
                measured[i] = 100.0 * double(i + 1);
        panel.setMeasured(measured);
        QVERIFY(!panel.view()->isColumnHidden(TopNodesModel::Measured));
        QVERIFY(panel.rankingSelector()->isEnabled());
        panel.rankingSelector()->setCurrentIndex(panel.rankingSelector()->findData(int(TopRanking::Measured)));
        const TopNodesModel* m = panel.model();
        const int last = int(graph->nodes.size()) - 1;
        QCOMPARE(m->index(0, 0).data(TopNodesModel::NodeIdRole).toLongLong(), graph->nodes[std::size_t(last)].id);
        QCOMPARE(cell(m, 0, TopNodesModel::Measured), 100.0 * (last + 1));
        // Sorting by a column reorders the view, not the ranking.
        panel.view()->sortByColumn(TopNodesModel::Predicted, Qt::DescendingOrder);
        const QAbstractItemModel* view = panel.view()->model();
        for (int r = 1; r < view->rowCount(); ++r)
            QVERIFY(cell(view, r, TopNodesModel::Predicted) <= cell(view, r - 1, TopNodesModel::Predicted));
        panel.setCost(nullptr, nullptr);
        QCOMPARE(m->rowCount(), 0);
    }

    void clickingARowSelectsTheNode()
    {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        auto* panel = w.findChild<TopNodesPanel*>();
        QVERIFY(panel);
        w.setCostProvider(makeCostProvider());
        QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
        QSignalSpy layout(&w, &MainWindow::layoutReady);
        w.openFile(cnn());
        QVERIFY(costs.wait(60000));
        QVERIFY(layout.count() > 0 || layout.wait(60000));
        QTRY_VERIFY(panel->model()->rowCount() > 1);
        w.findChild<QDockWidget*>(QStringLiteral("topNodesDock"))->raise();
        QTableView* view = panel->view();
        const QModelIndex second = view->model()->index(1, TopNodesModel::Name);
        QTRY_VERIFY(view->visualRect(second).isValid());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(second).center());
        QCOMPARE(w.scene()->selectedNodeId(),
                 std::optional<NodeId>(second.data(TopNodesModel::NodeIdRole).toLongLong()));
    }
};

QTEST_MAIN(TestTopNodes)
#include "test_top_nodes.moc"
