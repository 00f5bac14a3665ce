// SPDX-License-Identifier: MIT
// The Run panel's "Fusion verified" tab and the canvas outlines of fused kernels: a scripted verification (known
// kernels and times) read back from the table, the chart and the canvas; a fused run's kernels outlined from the
// Run panel's comparison; "Verify fusion" on the CPU, which does not fuse, says so.
#include "../engine/scripted_fusion_graph.h"
#include "canvas/fused_kernel_outlines.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "canvas/overlay_model.h"
#include "formats/rlx_json.h"
#include "main_window.h"
#include "panels/fusion_verified_view.h"
#include "panels/run_panel.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

using namespace costscope;
using costscope::test::Scripted;
using costscope::test::scriptedGraph;

namespace {
// The scripted graph saved as RLX HIR JSON, opened in `w`, laid out.
bool openScripted(MainWindow& w, const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("scripted.hir.json"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(writeRlxJson(scriptedGraph().g))) < 0)
        return false;
    f.close();
    QSignalSpy loaded(&w, &MainWindow::graphLoaded);
    w.openFile(path);
    if (!loaded.wait(60000))
        return false;
    for (int i = 0; i < 600 && !(w.scene()->graph() && w.scene()->visibleNodeItemCount() > 0); ++i)
        QTest::qWait(50);
    return w.scene()->visibleNodeItemCount() > 0;
}

// Two kernels with known times: RLX's gate predicts the GEMM's gain within 25 % (75 of 90 µs), not the pair's (25
// of 50); the Costscope what-if the pair's (40 of 50), not the GEMM's (60 of 90).
FusionVerification scriptedVerification(const Scripted& s)
{
    FusionVerification v;
    v.backend = "cuda";
    v.target = "Cuda";
    v.profile = "rlx-linux/cuda";
    v.plannedGroups = 2;
    v.unfusedWhole = TimingStats::of({700'000});
    v.fusedWhole = TimingStats::of({560'000});
    FusedKernelCheck gemm{
        "gemm_bias_relu", {s.mm, s.add, s.relu}, 510'000, 420'000, 90'000, 75'000, 500'000, 440'000, 60'000, {}};
    FusedKernelCheck pair{
        "elementwise[Mul+Add]", {s.mul, s.out}, 85'000, 35'000, 50'000, 25'000, 60'000, 20'000, 40'000, {}};
    v.kernels = {gemm, pair};
    v.checkedKernels = 2;
    v.rlxShareWithin = 0.5;
    v.costscopeShareWithin = 0.5;
    return v;
}

bool contains(const QRectF& outer, const QRectF& inner)
{
    return outer.adjusted(-0.5, -0.5, 0.5, 0.5).contains(inner);
}
} // namespace

class TestFusionVerifiedView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

    void tableChartAndOutlinesShowAVerification()
    {
        MainWindow w;
        QTemporaryDir dir;
        QVERIFY(openScripted(w, dir));
        auto* view = w.findChild<RunPanel*>()->fusionView();
        QVERIFY(view);
        const Scripted s = scriptedGraph();
        view->showVerification(std::make_shared<const FusionVerification>(scriptedVerification(s)), w.graph());

        QTableWidget* t = view->table();
        QCOMPARE(t->rowCount(), 2);
        auto value = [&](int row, int col) {
            return t->item(row, col)->data(FusionVerifiedView::kValueRole).toDouble();
        };
        const int gemmRow = t->item(0, FusionVerifiedView::Kernel)->text() == "gemm_bias_relu" ? 0 : 1;
        const int pairRow = 1 - gemmRow;
        QCOMPARE(t->item(gemmRow, FusionVerifiedView::Kernel)->text(), QString("gemm_bias_relu"));
        QCOMPARE(value(gemmRow, FusionVerifiedView::Unfused), 510'000.0);
        QCOMPARE(value(gemmRow, FusionVerifiedView::Fused), 420'000.0);
        QCOMPARE(value(gemmRow, FusionVerifiedView::MeasuredGain), 90'000.0);
        QCOMPARE(value(gemmRow, FusionVerifiedView::RlxGain), 75'000.0);
        QCOMPARE(t->item(gemmRow, FusionVerifiedView::RlxWithin)->text(), QString("yes"));
        QCOMPARE(value(gemmRow, FusionVerifiedView::CostscopeGain), 60'000.0);
        QCOMPARE(t->item(gemmRow, FusionVerifiedView::CostscopeWithin)->text(), QString("no"));
        QCOMPARE(t->item(pairRow, FusionVerifiedView::RlxWithin)->text(), QString("no"));
        QCOMPARE(t->item(pairRow, FusionVerifiedView::CostscopeWithin)->text(), QString("yes"));
        QVERIFY(t->item(gemmRow, FusionVerifiedView::Nodes)->text().contains(QString("%1 MatMul").arg(s.mm)));
        QVERIFY(view->summary()->text().contains(QString("RLX gate (Cuda) 1/2 (50 %)")));

        // The chart: one point per kernel and model at (measured gain, predicted gain), in µs.
        QCustomPlot* chart = view->chart();
        QCPGraph* rlx = nullptr;
        for (int i = 0; i < chart->graphCount(); ++i)
            if (chart->graph(i)->name() == "RLX gate")
                rlx = chart->graph(i);
        QVERIFY(rlx);
        QCOMPARE(rlx->data()->size(), 2);
        std::vector<std::pair<double, double>> points;
        for (auto it = rlx->data()->constBegin(); it != rlx->data()->constEnd(); ++it)
            points.emplace_back(it->key, it->value);
        std::sort(points.begin(), points.end());
        QCOMPARE(points, (std::vector<std::pair<double, double>>{{50.0, 25.0}, {90.0, 75.0}}));

        // The canvas: each kernel's nodes inside one outline labelled with its name and measured time.
        const auto outlines = FusedKernelOutlines::of(w.scene())->items();
        QCOMPARE(outlines.size(), std::size_t(2));
        for (FusedKernelOutlineItem* o : outlines) {
            const bool isGemm = o->label().startsWith("gemm_bias_relu");
            QCOMPARE(o->label(), isGemm ? QString("gemm_bias_relu · %1").arg(formatNs(420'000))
                                        : QString("elementwise[Mul+Add] · %1").arg(formatNs(35'000)));
            for (NodeId id : isGemm ? std::vector<NodeId>{s.mm, s.add, s.relu} : std::vector<NodeId>{s.mul, s.out})
                QVERIFY(contains(o->sceneBoundingRect(),
                                 w.scene()->itemForNode(*w.graph()->indexOf(id))->sceneBoundingRect()));
        }
        // A relayout (the scene clears its items) draws them again.
        QSignalSpy laidOut(w.scene(), &GraphScene::layoutFinished);
        w.scene()->setDirection(w.scene()->direction() == layout::Direction::TopToBottom
                                    ? layout::Direction::LeftToRight
                                    : layout::Direction::TopToBottom);
        QVERIFY(laidOut.wait(60000));
        QCOMPARE(FusedKernelOutlines::of(w.scene())->items().size(), std::size_t(2));
        // Cleared with the view.
        view->showVerification(nullptr, nullptr);
        QCOMPARE(t->rowCount(), 0);
        QVERIFY(FusedKernelOutlines::of(w.scene())->items().empty());
    }

    void fusedRunIsOutlinedFromTheComparison()
    {
        MainWindow w;
        QTemporaryDir dir;
        QVERIFY(openScripted(w, dir));
        const Scripted s = scriptedGraph();
        RunResult r;
        r.whole = TimingStats::of({600'000});
        r.perNode = {{s.relu, "gemm_bias_relu", 420'000, {s.mm, s.add}}, {s.out, "ew", 30'000, {s.mul}}};
        auto predicted = predictRun(*w.graph(), {}, "cuda", {});
        QVERIFY(predicted);
        DeviceInfo device;
        device.backend = "cuda";
        device.name = "scripted";
        const RunComparison run = compareRun(w.graph(), {}, device, r, *predicted);
        QCOMPARE(run.nodes[0].fused, (std::vector<NodeId>{s.mm, s.add}));
        const auto kernels = fusedKernelsOf(run);
        QCOMPARE(kernels.size(), std::size_t(2));
        QCOMPARE(kernels[0].kernel, QString("gemm_bias_relu"));
        QCOMPARE(kernels[0].measuredNs, 420'000.0);
        QCOMPARE(kernels[0].nodes, (std::vector<std::size_t>{*w.graph()->indexOf(s.mm), *w.graph()->indexOf(s.add),
                                                             *w.graph()->indexOf(s.relu)}));
        FusedKernelOutlines::of(w.scene())->setKernels(kernels);
        QCOMPARE(FusedKernelOutlines::of(w.scene())->items().size(), std::size_t(2));
    }

    void cpuVerifySaysItDoesNotFuse()
    {
        MainWindow w;
        QTemporaryDir dir;
        QVERIFY(openScripted(w, dir));
        auto* panel = w.findChild<RunPanel*>();
        panel->deviceSelector()->setCurrentIndex(panel->deviceSelector()->findData("cpu", RunPanel::kBackendRole));
        panel->runsSpin()->setValue(2);
        auto* view = panel->fusionView();
        QSignalSpy finished(view, &FusionVerifiedView::finished);
        view->verifyButton()->click();
        QVERIFY(!view->verifyButton()->isEnabled());
        QVERIFY(!panel->runButton()->isEnabled()); // one measurement at a time
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(view->summary()->text()));
        QVERIFY(view->verifyButton()->isEnabled());
        QVERIFY(view->summary()->text().contains("not fused by this backend: cpu"));
        QCOMPARE(view->table()->rowCount(), 0);
        QCOMPARE(view->verification()->unfusedWhole.runs, 2);
        QCOMPARE(view->verification()->fusedWhole.runs, 2);
        // While the Run panel runs, Verify waits.
        QSignalSpy ran(panel, &RunPanel::finished);
        panel->runButton()->click();
        QVERIFY(!view->verifyButton()->isEnabled());
        QVERIFY(ran.wait(120000));
        QVERIFY(view->verifyButton()->isEnabled());
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(TestFusionVerifiedView)
#include "test_fusion_verified_view.moc"
