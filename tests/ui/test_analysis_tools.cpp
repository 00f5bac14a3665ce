// SPDX-License-Identifier: MIT
// The main window's analysis tools on real widgets (offscreen): jump to the costliest nodes, batch presets and the
// bindings editor, the cost summary bar and the per-device table, and the instant device switch.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "canvas/overlay_model.h"
#include "device_selector.h"
#include "edit/precision_transform.h"
#include "ir/rebatch.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include "panels/cost_summary_bar.h"
#include "panels/device_cost_table.h"
#include "panels/node_table_panel.h"
#include "panels/property_panel.h"
#include "panels/search_bar.h"
#include "test_paths.h"
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace costscope;

namespace {

const QString kTransformer = QStringLiteral("resources/examples/tiny_transformer.hir.json");

bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    w.openFile(path);
    return ready.wait(60000);
}

// The cost of node i on a device is a fixed permutation of i, so the costliest order is known in advance.
std::shared_ptr<const GraphCost> permutedCosts(const Graph& g, const CostRequest& r)
{
    auto cost = std::make_shared<GraphCost>();
    cost->model = r.model;
    cost->profile = r.device;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        NodeCost c;
        c.id = g.nodes[i].id;
        c.computeNs = static_cast<double>((i * 7) % g.nodes.size() + 1);
        c.totalNs = c.computeNs;
        cost->totalNs += c.totalNs;
        cost->nodes.push_back(c);
    }
    return cost;
}

GraphCost expected(const Graph& g, const QString& model, const QString& device, const Bindings& b)
{
    const auto profile = profileForDeviceName(device.toStdString());
    return makeCostModel(model.toStdString())->estimate(g, *profile, b);
}

// Every device's costs for `model` and `b` at the window's precision.
bool waitForDeviceCosts(MainWindow& w, const std::string& model, const Bindings& b)
{
    return QTest::qWaitFor(
        [&] { return w.deviceCosts() && w.deviceCosts()->matches(model, b, w.analysisSettings()->value().precision); },
        60000);
}

// A text field as the X11 key bindings make it: Ctrl+E is its "end of line", so it takes the key (accepts the
// ShortcutOverride) before any shortcut sees it. The offscreen platform has no such binding; this puts it back.
class TakesCtrlE : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::ShortcutOverride
            && static_cast<QKeyEvent*>(event)->keyCombination() == QKeyCombination(Qt::ControlModifier, Qt::Key_E)) {
            event->accept();
            return true;
        }
        return false;
    }
};

} // namespace

class TestAnalysisTools : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("analysis/rlxVersion")); // a run before may have left 0.2.14
    }

    void jumpCyclesThroughTheCostliestNodes()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.setCostProvider(permutedCosts);
        QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() != nullptr; }, 30000));
        const GraphCost& cost = *w.overlay().cost();
        std::vector<std::size_t> order(cost.nodes.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](auto a, auto b) { return cost.nodes[a].totalNs > cost.nodes[b].totalNs; });
        QVERIFY(w.jumpToCostliestAction()->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_J));
        for (std::size_t k = 0; k < MainWindow::kCostliestCount + 2; ++k) {
            w.jumpToCostliestAction()->trigger();
            const int want = static_cast<int>(order[k % MainWindow::kCostliestCount]);
            QCOMPARE(w.nodeTable()->selectedNode(), std::optional(w.graph()->nodes[std::size_t(want)].id));
            QCOMPARE(w.scene()->itemForNode(static_cast<std::size_t>(want))->isSelected(), true);
        }
    }

    // Ctrl+J on the keyboard lands somewhere the user sees: zoomed in to a readable size, centred and ringed.
    void jumpShowsWhereItLanded()
    {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.setCostProvider(permutedCosts);
        QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() != nullptr; }, 30000));
        w.canvas()->zoomBy(0.2 / w.canvas()->zoom()); // far out, as a fit of a large graph is
        w.canvas()->setFocus();
        QTest::keyClick(w.canvas()->viewport(), Qt::Key_J, Qt::ControlModifier);
        const std::optional<NodeId> node = w.nodeTable()->selectedNode();
        QVERIFY(node);
        const NodeItem* item = w.scene()->itemForNodeId(*node);
        QVERIFY(item && item->isSelected());
        QVERIFY(w.canvas()->zoom() >= 0.9);
        const QRectF shown = w.canvas()->mapToScene(w.canvas()->viewport()->rect()).boundingRect();
        QVERIFY(shown.contains(item->sceneBoundingRect().center()));
        QVERIFY(w.canvas()->pulseRect().contains(item->sceneBoundingRect()));
        QVERIFY(QTest::qWaitFor([&] { return w.canvas()->pulseRect().isEmpty(); }, 5000)); // and it fades
    }

    // Ctrl+F goes to the search field; the default mode finds ops by name too; Ctrl+E still exports from a field.
    void searchAndShortcutsFromTheKeyboard()
    {
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* exportAction = w.findChild<QAction*>(QStringLiteral("actionExport"));
        QVERIFY(exportAction);
        QSignalSpy exported(exportAction, &QAction::triggered); // without a graph it opens no dialog
        TakesCtrlE x11(w.searchBar()->edit());
        w.searchBar()->edit()->installEventFilter(&x11);
        w.searchBar()->edit()->setFocus();
        QTest::keyClick(w.searchBar()->edit(), Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(exported.count(), 1);
        w.batchSpin()->setFocus();
        QTest::keyClick(w.batchSpin(), Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(exported.count(), 2);

        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.canvas()->setFocus();
        QTest::keyClick(w.canvas()->viewport(), Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), w.searchBar()->edit());
        QCOMPARE(w.searchBar()->mode(), SearchBar::Mode::NameOrOp);
        QTest::keyClicks(w.searchBar()->edit(), QStringLiteral("Gelu"));
        QCOMPARE(w.searchBar()->matches().size(), std::size_t(2)); // one MLP activation per block
        QTest::keyClick(w.searchBar()->edit(), Qt::Key_Return);
        const std::optional<NodeId> found = w.scene()->selectedNodeId();
        QVERIFY(found);
        QCOMPARE(QString::fromStdString(w.graph()->find(*found)->op.label()), QStringLiteral("Activation.Gelu"));
        w.searchBar()->setQuery(QStringLiteral("Gelu"), SearchBar::Mode::Name);
        QVERIFY(w.searchBar()->matches().empty()); // no node is named so: the op is what matched
    }

    // A static graph (its inputs fix the batch, as ONNX exports do) is rebatched by the batch control; where a
    // parameter pins the batch, the control says why it does nothing.
    void batchRebatchesStaticGraphsOrSaysWhyNot()
    {
        MainWindow w;
        w.show();
        const QString cnn = test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json"));
        w.batchSpin()->setValue(16);
        QVERIFY(openAndWait(w, cnn));
        QCOMPARE(w.batchSpin()->value(), 2); // it opens at its own batch: the costs are of the graph as shown
        w.setCostProvider(makeCostProvider());
        QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() != nullptr; }, 30000));
        const Graph original = *w.graph();
        QVERIFY(original.symbols().empty());
        auto totalAt = [&](int batch) {
            const auto profile = profileForDeviceName("Cpu");
            auto g = batch == 2 ? Result<Graph>(original) : rebatch(original, batch);
            return g ? makeCostModel("rlx")->estimate(*g, *profile, {}).totalNs : -1.0;
        };
        for (int batch : {2, 8, 64}) {
            QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
            w.batchSpin()->setValue(batch);
            QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() && w.overlay().cost()->totalNs == totalAt(batch); },
                                    30000));
        }
        QVERIFY(totalAt(64) > totalAt(8) && totalAt(8) > totalAt(2));
        QVERIFY2(w.batchSpin()->toolTip().contains(QStringLiteral("rebatched from 2 to 64")),
                 qPrintable(w.batchSpin()->toolTip()));
        QVERIFY(*w.graph() == original); // the document is not edited: only what is costed

        QTemporaryDir dir;
        const QString pinned = dir.filePath(QStringLiteral("pinned.hir.json"));
        QFile f(pinned);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray shape = R"({"dims":[{"Static":2},{"Static":4}],"dtype":"F32"})";
        f.write(R"({"name":"pinned","nodes":[{"id":0,"op":{"Input":{"name":"x"}},"inputs":[],"shape":)" + shape
                + R"(},{"id":1,"op":{"Param":{"name":"w"}},"inputs":[],"shape":)" + shape
                + R"(},{"id":2,"op":{"Mir":{"Binary":"Add"}},"inputs":[0,1],"shape":)" + shape + R"(}],"outputs":[2]})");
        f.close();
        QVERIFY(openAndWait(w, pinned));
        QCOMPARE(w.batchSpin()->value(), 2);
        w.batchSpin()->setValue(8);
        QVERIFY(QTest::qWaitFor([&] { return w.batchSpin()->toolTip().contains(QStringLiteral("cannot change")); },
                                30000));
        QVERIFY2(w.batchSpin()->toolTip().contains(QStringLiteral("node 2")), qPrintable(w.batchSpin()->toolTip()));
        QVERIFY2(w.batchSpin()->toolTip().contains(QStringLiteral("its operand node 1 (Param F32[2,4]) holds batch 2")),
                 qPrintable(w.batchSpin()->toolTip()));
    }

    void presetSetsTheBindingAndRecolours()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.setCostProvider(makeCostProvider());
        QVERIFY(waitForDeviceCosts(w, "rlx", {{"batch", 1}}));
        const Graph& g = *w.graph();
        std::vector<QColor> before;
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            before.push_back(w.overlay().colour(i));

        auto* presets = w.findChild<QToolButton*>(QStringLiteral("batchPresets"));
        QVERIFY(presets && presets->menu());
        QAction* preset = presets->menu()->findChild<QAction*>(QStringLiteral("batchPreset4096"));
        QVERIFY(preset);
        QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
        preset->trigger();
        QCOMPARE(w.batchSpin()->value(), 4096);
        QCOMPARE(w.bindingsEditor()->bindings().at("batch"), 4096);
        QVERIFY(costs.wait(60000));
        const GraphCost want = expected(g, QStringLiteral("rlx"), QStringLiteral("Cpu"), {{"batch", 4096}});
        QCOMPARE(w.overlay().cost()->totalNs, want.totalNs);
        int recoloured = 0;
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
            recoloured += w.overlay().colour(i) != before[i];
        QVERIFY2(recoloured > 0, "no node changed colour between batch 1 and batch 4096");
        NodeItem* item = w.scene()->itemForNode(3);
        QVERIFY(item && item->heat() == w.overlay().colour(3));
    }

    void bindingsEditorHasEverySymbol()
    {
        QFile src(test::sourcePath(kTransformer));
        QVERIFY(src.open(QIODevice::ReadOnly));
        QByteArray text = src.readAll();
        text.replace("{\"Static\": 16}", "{\"Dynamic\": 1}"); // the sequence length becomes the symbol "seq"
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("seq.hir.json"));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text) == text.size());
        out.close();

        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, path));
        QVERIFY(w.bindingsEditor()->spinFor("batch"));
        QSpinBox* seq = w.bindingsEditor()->spinFor("seq");
        QVERIFY(seq);
        w.setCostProvider(makeCostProvider());
        QVERIFY(waitForDeviceCosts(w, "rlx", {{"batch", 1}, {"seq", 1}}));
        seq->setValue(64);
        w.batchSpin()->setValue(8);
        QCOMPARE(w.bindingsEditor()->spinFor("batch")->value(), 8);
        const Bindings b = {{"batch", 8}, {"seq", 64}};
        QVERIFY(waitForDeviceCosts(w, "rlx", b));
        // The canvas may be coloured by the single-device answer or by the all-devices one, whichever came first:
        // both are for these bindings, so the totals agree (the object need not be the same).
        const double want = expected(*w.graph(), QStringLiteral("rlx"), QStringLiteral("Cpu"), b).totalNs;
        QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() && w.overlay().cost()->totalNs == want; }, 60000));
        QCOMPARE(w.deviceCosts()->find("Cpu")->totalNs, want);
        QVERIFY(w.overlay().cost()->skipped.empty());
    }

    void summaryBarShowsEveryDevicesTotalAndThePick()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.modelSelector()->setCurrentText(QStringLiteral("costscope"));
        w.setCostProvider(makeCostProvider());
        QVERIFY(waitForDeviceCosts(w, "costscope", {{"batch", 1}}));
        const Graph& g = *w.graph();
        QCOMPARE(w.rlxVersion(), RlxVersion::V0_2_16);
        // RLX 0.2.16's rule: the Uncalibrated devices (RLX's no-device rows, the Metal and MLX presets) are left
        // out, and the preset and CPU rows remain, so the pick is the cheapest of those.
        double best = 0;
        QString pick;
        for (const QString& device : deviceNamesOf(w.deviceSelector())) {
            const GraphCost want = expected(g, QStringLiteral("costscope"), device, {{"batch", 1}});
            if (want.calibration == Calibration::Uncalibrated)
                continue;
            const auto shown = w.costSummaryBar()->totalNs(device);
            QVERIFY2(shown, qPrintable(device));
            QCOMPARE(*shown, want.totalNs);
            QVERIFY2(w.costSummaryBar()->totalsText().contains(device + QLatin1Char(' ') + formatNs(want.totalNs)),
                     qPrintable(device));
            if (pick.isEmpty() || want.totalNs < best) {
                best = want.totalNs;
                pick = device;
            }
        }
        QVERIFY2(w.costSummaryBar()->pickText().contains(QStringLiteral("<b>%1</b>").arg(pick)), qPrintable(w.costSummaryBar()->pickText()));
        const IoProfile io = expected(g, QStringLiteral("costscope"), QStringLiteral("Cpu"), {{"batch", 1}}).io;
        QVERIFY(w.costSummaryBar()->ioText().startsWith(QStringLiteral("IO: %1 launches · %2 sync").arg(io.kernelLaunches).arg(io.syncPoints)));
    }

    // The RLX version selector in the Analysis toolbar: the device table shows each profile's tag, greys what the
    // rule leaves out, and the pick moves to the cheapest of all under 0.2.14; the choice is kept in the settings.
    void rlxVersionSelectorDecidesThePick()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.batchSpin()->setValue(4096);
        w.setCostProvider(makeCostProvider());
        QVERIFY(waitForDeviceCosts(w, "rlx", {{"batch", 4096}}));
        const Graph& g = *w.graph();
        std::size_t matmul = 0;
        while (matmul < g.nodes.size() && g.nodes[matmul].op.kind != OpKind::MatMul)
            ++matmul;
        QVERIFY(matmul < g.nodes.size());
        w.scene()->itemForNode(matmul)->setSelected(true);
        DeviceCostTable* table = w.deviceCostTable();
        auto row = [&](const QString& device) {
            for (int r = 0; r < table->rowCount(); ++r)
                if (table->item(r, DeviceCostTable::Device)->text() == device)
                    return r;
            return -1;
        };
        for (const char* device : {"Cpu", "Cuda", "Tpu"})
            QVERIFY2(row(device) >= 0, device);
        QCOMPARE(table->item(row("Cpu"), DeviceCostTable::Calibration)->text(), QString("ArchDefault"));
        QCOMPARE(table->item(row("Cuda"), DeviceCostTable::Calibration)->text(), QString("Uncalibrated"));
        QCOMPARE(table->item(row("Tpu"), DeviceCostTable::Calibration)->text(), QString("Uncalibrated"));
        QVERIFY(table->item(row("Cuda"), DeviceCostTable::Total)->toolTip().contains("left out of the ranking"));
        QVERIFY(table->item(row("Cpu"), DeviceCostTable::Total)->toolTip().isEmpty());

        auto cheapest = [&](bool skipUncalibrated) {
            QString pick;
            double best = 0;
            for (const QString& device : deviceNamesOf(w.deviceSelector())) {
                const GraphCost c = expected(g, QStringLiteral("rlx"), device, {{"batch", 4096}});
                if (skipUncalibrated && c.calibration == Calibration::Uncalibrated)
                    continue;
                if (pick.isEmpty() || c.totalNs < best) {
                    best = c.totalNs;
                    pick = device;
                }
            }
            return pick;
        };
        const QString now = cheapest(true), old = cheapest(false);
        QVERIFY2(now != old, qPrintable(now)); // the graph and batch make the two rules differ
        QVERIFY2(w.costSummaryBar()->pickText().contains(QStringLiteral("<b>%1</b>").arg(now)),
                 qPrintable(w.costSummaryBar()->pickText()));
        QVERIFY(w.costSummaryBar()->pickText().contains(QStringLiteral("RLX 0.2.16")));

        QComboBox* version = w.rlxVersionSelector();
        QVERIFY(version);
        version->setCurrentIndex(version->findData(static_cast<int>(RlxVersion::V0_2_14)));
        QCOMPARE(w.rlxVersion(), RlxVersion::V0_2_14);
        QVERIFY2(w.costSummaryBar()->pickText().contains(QStringLiteral("<b>%1</b>").arg(old)),
                 qPrintable(w.costSummaryBar()->pickText()));
        QVERIFY(table->item(row("Cuda"), DeviceCostTable::Total)->toolTip().isEmpty());
        QCOMPARE(QSettings().value(QStringLiteral("analysis/rlxVersion")).toString(), QString("0.2.14"));
        {
            MainWindow again; // the choice is kept
            QCOMPARE(again.rlxVersion(), RlxVersion::V0_2_14);
        }
        version->setCurrentIndex(version->findData(static_cast<int>(RlxVersion::V0_2_16)));
        QCOMPARE(QSettings().value(QStringLiteral("analysis/rlxVersion")).toString(), QString("0.2.16"));
    }

    void deviceTableShowsTheSelectedNodeOnAllDevices()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.setCostProvider(makeCostProvider());
        QVERIFY(waitForDeviceCosts(w, "rlx", {{"batch", 1}}));
        const Graph& g = *w.graph();
        std::size_t matmul = 0;
        while (matmul < g.nodes.size() && g.nodes[matmul].op.kind != OpKind::MatMul)
            ++matmul;
        QVERIFY(matmul < g.nodes.size());
        w.scene()->itemForNode(matmul)->setSelected(true);
        QCOMPARE(w.deviceCostTable()->rowCount(), deviceNamesOf(w.deviceSelector()).size());
        for (const QString& device : {QStringLiteral("Cpu"), QStringLiteral("Cuda"), QStringLiteral("Metal")}) {
            const NodeCost want = expected(g, QStringLiteral("rlx"), device, {{"batch", 1}}).nodes[matmul];
            QCOMPARE(*w.deviceCostTable()->valueNs(device, DeviceCostTable::Total), want.totalNs);
            QCOMPARE(*w.deviceCostTable()->valueNs(device, DeviceCostTable::Compute), want.computeNs);
            QCOMPARE(*w.deviceCostTable()->valueNs(device, DeviceCostTable::Memory), want.memoryNs);
            QCOMPARE(*w.deviceCostTable()->valueNs(device, DeviceCostTable::Dispatch), want.dispatchNs);
            QCOMPARE(*w.deviceCostTable()->valueNs(device, DeviceCostTable::Sync), want.syncNs);
        }
    }

    void precisionWhatIfRepricesAndTheNodeShowsItsDtype()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.modelSelector()->setCurrentText(QStringLiteral("costscope"));
        w.deviceSelector()->setCurrentText(QStringLiteral("nvidia-h100"));
        QCOMPARE(w.deviceSelector()->currentText(), QStringLiteral("nvidia-h100"));
        w.batchSpin()->setValue(64);
        w.setCostProvider(makeCostProvider());
        const Bindings batch64{{"batch", 64}};
        QVERIFY(waitForDeviceCosts(w, "costscope", batch64));
        const Graph g = *w.graph();
        const double fp32 = expected(g, QStringLiteral("costscope"), QStringLiteral("nvidia-h100"), batch64).totalNs;
        QVERIFY(QTest::qWaitFor([&] { return w.overlay().cost() && w.overlay().cost()->totalNs == fp32; }, 30000));

        QComboBox* precision = w.precisionSelector();
        QVERIFY(precision);
        QCOMPARE(precision->currentText(), QStringLiteral("fp32"));
        for (const QString& name : {QStringLiteral("bf16"), QStringLiteral("fp8"), QStringLiteral("tf32")}) {
            precision->setCurrentText(name);
            QCOMPARE(w.precision(), *parsePrecision(name.toStdString()));
            auto retyped = edit::withPrecision(g, w.precision());
            QVERIFY(retyped);
            const double want =
                expected(*retyped, QStringLiteral("costscope"), QStringLiteral("nvidia-h100"), batch64).totalNs;
            QVERIFY(name == QStringLiteral("tf32") ? want <= fp32 : want < fp32); // tf32 keeps the bytes
            QVERIFY2(QTest::qWaitFor([&] { return w.overlay().cost() && w.overlay().cost()->totalNs == want; }, 30000),
                     qPrintable(name));
            // Every device is re-priced too, not only the current one.
            QVERIFY(QTest::qWaitFor([&] { return w.deviceCosts() != nullptr; }, 30000));
            QCOMPARE(w.deviceCosts()->find("nvidia-h100")->totalNs, want);
        }
        QVERIFY(*w.graph() == g); // the document keeps its fp32

        // The node panel says what the node stores and computes in.
        std::size_t matmul = 0;
        while (matmul < g.nodes.size() && g.nodes[matmul].op.kind != OpKind::MatMul)
            ++matmul;
        QVERIFY(matmul < g.nodes.size());
        w.scene()->itemForNode(matmul)->setSelected(true);
        QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Output"), QStringLiteral("dtype")), QStringLiteral("F32"));
        QCOMPARE(w.propertyPanel()->valueOf(QStringLiteral("Output"), QStringLiteral("computes in")),
                 QStringLiteral("fp32"));
        precision->setCurrentText(QStringLiteral("fp32"));
    }

    void deviceSwitchRecoloursAtOnceFromTheCache()
    {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(kTransformer)));
        w.setCostProvider(makeCostProvider());
        QVERIFY(waitForDeviceCosts(w, "rlx", {{"batch", 1}}));
        QSignalSpy costs(w.openGraph(), &OpenGraphFeed::costsUpdated);
        w.deviceSelector()->setCurrentText(QStringLiteral("Cuda"));
        QCOMPARE(costs.count(), 1); // synchronously, no cost model run
        QCOMPARE(w.overlay().cost(), w.deviceCosts()->find("Cuda").get());
        QCOMPARE(w.overlay().cost()->totalNs, expected(*w.graph(), QStringLiteral("rlx"), QStringLiteral("Cuda"), {{"batch", 1}}).totalNs);
    }
};

QTEST_MAIN(TestAnalysisTools)
#include "test_analysis_tools.moc"
