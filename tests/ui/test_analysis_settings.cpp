// SPDX-License-Identifier: MIT
// The one owner of the analysis settings: the toolbar and the Bindings dock are views of it, a saved .costscope
// document brings back the settings, the view, the collapsed groups and the boxes' positions, and File → Export
// writes with every binding, off the GUI thread.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "export_menu.h"
#include "formats/costscope_document.h"
#include "formats/graph_file.h"
#include "jobs/job_tracker.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include "test_paths.h"
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;

namespace {

bool openAndWait(MainWindow& w, const QString& path)
{
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    w.openFile(path);
    return ready.wait(60000);
}

// tiny_transformer with its sequence length as the symbol "seq": two bindings, and groups from its parameter names.
QString writeSeqGraph(const QTemporaryDir& dir)
{
    QFile src(test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")));
    if (!src.open(QIODevice::ReadOnly))
        return {};
    QByteArray text = src.readAll();
    text.replace("{\"Static\": 16}", "{\"Dynamic\": 1}");
    const QString path = dir.filePath(QStringLiteral("seq.hir.json"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size())
        return {};
    return path;
}

// File → Export's job run as the menu runs it (a JobTracker's worker thread): its error, empty on success; nullopt
// when it did not finish.
std::optional<QString> exportAndWait(const MainWindow& w, const QString& out)
{
    JobTracker job;
    std::optional<QString> error;
    job.start(exportJob(w.openGraph(), w.currentFile(), out), [&error](const QString& e) { error = e; });
    if (!QTest::qWaitFor([&] { return error.has_value(); }, 60000))
        return std::nullopt;
    return error;
}

// The first device's total of a JSON report File → Export wrote under the window's settings; < 0 on failure.
double exportedTotalNs(const MainWindow& w, const QString& out)
{
    if (exportAndWait(w, out) != QString())
        return -1;
    QFile file(out);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QJsonObject report = QJsonDocument::fromJson(file.readAll()).object();
    return report.value(QStringLiteral("devices"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("total_ns"))
        .toDouble(-1);
}

std::map<NodeId, QPointF> boxPositions(const MainWindow& w)
{
    std::map<NodeId, QPointF> out;
    for (std::size_t i = 0; i < w.graph()->nodes.size(); ++i)
        if (const NodeItem* item = w.scene()->itemForNode(i))
            out[w.graph()->nodes[i].id] = item->pos();
    return out;
}

} // namespace

class TestAnalysisSettings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear(); // the toolbar starts from a previous run's model, device and batch otherwise
    }

    void ownerSaysOnceWhatChanged()
    {
        AnalysisSettingsOwner owner;
        QSignalSpy changed(&owner, &AnalysisSettingsOwner::changed);
        owner.setModel("costscope");
        owner.setModel("costscope");
        QCOMPARE(changed.count(), 1);
        owner.setBinding("seq", 128);
        owner.setPrecision("fp16");
        owner.setRlxVersion(RlxVersion::V0_2_14);
        QCOMPARE(changed.count(), 4);
        QCOMPARE(owner.value().bindings.at("seq"), std::int64_t(128));
        QCOMPARE(owner.value().batch(), std::int64_t(1));
        owner.setBindings({{"seq", 4}});
        QCOMPARE(owner.value().bindings, (Bindings{{"batch", 1}, {"seq", 4}})); // batch is always there
        QCOMPARE(owner.value().precision, std::string("fp16"));
    }

    void toolbarAndBindingsDockAreViewsOfIt()
    {
        QTemporaryDir dir;
        const QString path = writeSeqGraph(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, path));
        AnalysisSettingsOwner* settings = w.analysisSettings();
        w.batchSpin()->setValue(8);
        QCOMPARE(settings->value().batch(), std::int64_t(8));
        QCOMPARE(w.bindingsEditor()->spinFor("batch")->value(), 8);
        w.bindingsEditor()->spinFor("seq")->setValue(32);
        QCOMPARE(settings->value().bindings.at("seq"), std::int64_t(32));
        settings->setBinding("batch", 200000); // past the old toolbar limit of 65 536: both boxes take it
        QCOMPARE(w.batchSpin()->value(), 200000);
        QCOMPARE(w.bindingsEditor()->spinFor("batch")->value(), 200000);
        settings->setDevice("Cuda");
        QCOMPARE(w.deviceSelector()->currentText(), QStringLiteral("Cuda"));
        w.modelSelector()->setCurrentText(QStringLiteral("costscope"));
        QCOMPARE(settings->value().model, std::string("costscope"));
        settings->setRlxVersion(RlxVersion::V0_2_14);
        QVERIFY(w.rlxVersion() == RlxVersion::V0_2_14);
        QVERIFY(static_cast<RlxVersion>(w.rlxVersionSelector()->currentData().toInt()) == RlxVersion::V0_2_14);
    }

    void savedDocumentBringsBackSettingsViewGroupsAndPositions()
    {
        QTemporaryDir dir;
        const QString path = writeSeqGraph(dir);
        QVERIFY(!path.isEmpty());
        const QString saved = dir.filePath(QStringLiteral("session.costscope"));
        std::map<NodeId, QPointF> positions;
        std::vector<std::string> collapsed;
        double zoom = 0;
        {
            MainWindow w;
            w.show();
            QVERIFY(openAndWait(w, path));
            AnalysisSettingsOwner* settings = w.analysisSettings();
            settings->set({"costscope", "Cuda", {{"batch", 4}, {"seq", 24}}, "fp16", RlxVersion::V0_2_14});
            w.overlaySelector()->setCurrentText(QStringLiteral("IO bytes"));
            const GroupTree& groups = w.scene()->groups();
            QVERIFY(groups.groups.size() > 2);
            QSignalSpy relaid(&w, &MainWindow::layoutReady);
            w.scene()->expandAll();
            QVERIFY(relaid.wait(60000));
            w.scene()->setCollapsedGroups({groups.groups[2].path});
            QVERIFY(relaid.wait(60000));
            collapsed = w.scene()->collapsedGroups();
            QCOMPARE(collapsed.size(), std::size_t(1));
            w.canvas()->zoomBy(0.5);
            zoom = w.canvas()->zoom();
            positions = boxPositions(w);
            QVERIFY(positions.size() > 10);
            QVERIFY(w.saveAs(saved));
            auto doc = parseCostscopeDocument(*readFileBytes(saved.toStdString()));
            QVERIFY(doc);
            QCOMPARE(doc->bindings.at("seq"), std::int64_t(24));
            QCOMPARE(doc->precision, std::string("fp16"));
            QCOMPARE(doc->positions.size(), positions.size());
        }
        MainWindow other;
        other.show();
        other.modelSelector()->setCurrentText(QStringLiteral("rlx"));
        other.deviceSelector()->setCurrentText(QStringLiteral("Cpu"));
        other.overlaySelector()->setCurrentText(QStringLiteral("Cost"));
        other.openFile(saved);
        const AnalysisSettings want{"costscope", "Cuda", {{"batch", 4}, {"seq", 24}}, "fp16", RlxVersion::V0_2_14};
        QVERIFY(QTest::qWaitFor([&] { return other.analysisSettings()->value() == want; }, 60000));
        QCOMPARE(other.modelSelector()->currentText(), QStringLiteral("costscope"));
        QCOMPARE(other.deviceSelector()->currentText(), QStringLiteral("Cuda"));
        QCOMPARE(other.batchSpin()->value(), 4);
        QCOMPARE(other.bindingsEditor()->spinFor("seq")->value(), 24);
        QCOMPARE(other.overlaySelector()->currentText(), QStringLiteral("IO bytes"));
        QVERIFY(QTest::qWaitFor([&] { return other.scene()->collapsedGroups() == collapsed; }, 60000));
        QVERIFY(QTest::qWaitFor([&] { return other.graph() && boxPositions(other) == positions; }, 60000));
        QVERIFY(qAbs(other.canvas()->zoom() - zoom) < 1e-9 * zoom);
    }

    void exportWritesEveryBindingOffTheGuiThread()
    {
        QTemporaryDir dir;
        const QString path = writeSeqGraph(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QVERIFY(openAndWait(w, path));
        w.analysisSettings()->set({"costscope", "Cpu", {{"batch", 2}, {"seq", 48}}, "", RlxVersion::V0_2_16});
        const QString out = dir.filePath(QStringLiteral("report.json"));
        QCOMPARE(exportAndWait(w, out), std::optional(QString()));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonObject bindings = report.value(QStringLiteral("bindings")).toObject();
        QCOMPARE(bindings.value(QStringLiteral("seq")).toInt(), 48);
        QCOMPARE(bindings.value(QStringLiteral("batch")).toInt(), 2);
        QCOMPARE(report.value(QStringLiteral("model")).toString(), QStringLiteral("costscope"));
    }

    void precisionComboIsAViewOfTheSettingsAndTheDocumentKeepsIt()
    {
        QTemporaryDir dir;
        const QString path = writeSeqGraph(dir);
        QVERIFY(!path.isEmpty());
        const QString saved = dir.filePath(QStringLiteral("precision.costscope"));
        {
            MainWindow w;
            w.show();
            QVERIFY(openAndWait(w, path));
            QComboBox* combo = w.precisionSelector();
            QVERIFY(combo);
            QCOMPARE(combo->currentText(), QStringLiteral("fp32"));
            QCOMPARE(w.analysisSettings()->value().precision, std::string());
            combo->setCurrentText(QStringLiteral("bf16"));
            QCOMPARE(w.analysisSettings()->value().precision, std::string("bf16"));
            QVERIFY(w.precision() == Precision::Bf16);
            w.analysisSettings()->setPrecision("fp8");
            QCOMPARE(combo->currentText(), QStringLiteral("fp8"));
            QVERIFY(w.precision() == Precision::Fp8);
            w.analysisSettings()->setPrecision("int8"); // not a what-if: the graph's own dtypes
            QCOMPARE(w.analysisSettings()->value().precision, std::string());
            QCOMPARE(combo->currentText(), QStringLiteral("fp32"));
            combo->setCurrentText(QStringLiteral("fp16"));
            QVERIFY(w.saveAs(saved));
        }
        MainWindow other;
        other.show();
        QCOMPARE(other.precisionSelector()->currentText(), QStringLiteral("fp32"));
        other.openFile(saved);
        QVERIFY(QTest::qWaitFor([&] { return other.analysisSettings()->value().precision == "fp16"; }, 60000));
        QCOMPARE(other.precisionSelector()->currentText(), QStringLiteral("fp16"));
        QVERIFY(other.precision() == Precision::Fp16);
    }

    void exportPricesAtTheSettingsPrecision()
    {
        QTemporaryDir dir;
        const QString path = writeSeqGraph(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QVERIFY(openAndWait(w, path));
        w.analysisSettings()->set({"costscope", "Cuda", {{"batch", 64}, {"seq", 128}}, "", RlxVersion::V0_2_16});
        const double fp32 = exportedTotalNs(w, dir.filePath(QStringLiteral("fp32.json")));
        QVERIFY(fp32 > 0);
        w.precisionSelector()->setCurrentText(QStringLiteral("bf16"));
        const double bf16 = exportedTotalNs(w, dir.filePath(QStringLiteral("bf16.json")));
        QVERIFY(bf16 > 0);
        QVERIFY2(bf16 < fp32, qPrintable(QStringLiteral("bf16 %1 ns, fp32 %2 ns").arg(bf16).arg(fp32)));
    }
};

QTEST_MAIN(TestAnalysisSettings)
#include "test_analysis_settings.moc"
