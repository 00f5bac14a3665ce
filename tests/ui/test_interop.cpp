// SPDX-License-Identifier: MIT
// Interop on real widgets (offscreen): a measured trace imported as the Measured overlay.
#include "canvas/graph_scene.h"
#include "canvas/node_item.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "test_paths.h"
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
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

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QFile f(dir.filePath(name));
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() ? f.fileName() : QString();
}

} // namespace

class TestInterop : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void traceImportShowsTheMeasuredOverlay()
    {
        QTemporaryDir dir;
        // A Chrome/Perfetto trace as RLX writes it: "probs" (node 54) twice, one event no node has.
        const QString trace = writeFile(dir, QStringLiteral("trace.json"), R"({"traceEvents": [
            {"name": "probs", "ph": "X", "ts": 0, "dur": 4.0},
            {"name": "probs", "ph": "X", "ts": 10, "dur": 6.0},
            {"name": "host_copy", "ph": "X", "ts": 20, "dur": 1.5}]})");
        QVERIFY(!trace.isEmpty());
        MainWindow w;
        w.setCostProvider(makeCostProvider());
        w.show();
        QVERIFY(openAndWait(w, test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"))));
        QSignalSpy imported(&w, &MainWindow::traceImported);
        w.importTrace(trace);
        QVERIFY(imported.wait(30000));
        const QString report = imported.takeFirst().at(0).toString();
        QVERIFY2(report.contains(QStringLiteral("2 of 3 events matched 1 nodes")), qPrintable(report));
        QVERIFY(report.contains(QStringLiteral("host_copy")));
        QCOMPARE(w.overlaySelector()->currentData().toInt(), static_cast<int>(OverlayMode::Measured));
        QVERIFY(w.overlay().hasMeasured());
        const int probs = static_cast<int>(*w.graph()->indexOf(54));
        QCOMPARE(w.overlay().value(static_cast<std::size_t>(probs)), std::optional<double>(5000.0)); // mean of 4 and 6 µs
        QVERIFY(w.scene()->itemForNode(static_cast<std::size_t>(probs))->heat().isValid());

        // A trace that matches nothing, and one that does not parse, are errors that say so.
        QStringList errors;
        w.setErrorReporter([&](const QString&, const QString& message) { errors << message; });
        w.importTrace(writeFile(dir, QStringLiteral("other.json"), R"([{"name": "elsewhere", "ph": "X", "ts": 0, "dur": 1}])"));
        QTRY_COMPARE(errors.size(), 1);
        QVERIFY(errors[0].contains(QStringLiteral("elsewhere")));
        w.importTrace(writeFile(dir, QStringLiteral("broken.json"), "{\"traceEvents\": [1,"));
        QTRY_COMPARE(errors.size(), 2);
        QVERIFY(errors[1].contains(QStringLiteral("broken.json")));
    }
};

QTEST_MAIN(TestInterop)
#include "test_interop.moc"
