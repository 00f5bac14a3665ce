// SPDX-License-Identifier: MIT
// Interop on real widgets (offscreen): a measured trace imported as the Measured overlay.
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "canvas/minimap.h"
#include "diff/diff_window.h"
#include "formats/graph_file.h"
#include "canvas/node_item.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "test_paths.h"
#include <QComboBox>
#include <QFile>
#include <QImage>
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

    // The Compare window's canvases have minimaps that show their graph, as the main canvas does.
    void compareWindowMinimapsShowTheGraphs()
    {
        auto loaded = loadGraphFile(test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")).toStdString());
        QVERIFY(loaded);
        auto graph = std::make_shared<const Graph>(std::move(loaded->graph));
        DiffWindow diff({graph, QStringLiteral("a")}, {graph, QStringLiteral("b")}, nullptr, CostRequest{}, {});
        QSignalSpy laidOut(diff.sceneB(), &GraphScene::layoutFinished);
        diff.show();
        QVERIFY(QTest::qWaitForWindowExposed(&diff));
        QVERIFY(laidOut.count() > 0 || laidOut.wait(30000));
        QTest::qWait(50);
        const auto views = diff.findChildren<CanvasView*>();
        QCOMPARE(views.size(), 2);
        for (CanvasView* view : views) {
            view->zoomBy(3.0 / view->zoom()); // part of the graph out of view: the minimap shows
            Minimap* minimap = view->minimap();
            QVERIFY(minimap->isVisible());
            // The whole scene fits inside the minimap, and something of it is drawn there.
            const QRect scene = minimap->mapFromScene(view->scene()->itemsBoundingRect()).boundingRect();
            QVERIFY2(minimap->viewport()->rect().adjusted(-2, -2, 2, 2).contains(scene),
                     qPrintable(QStringLiteral("%1,%2 %3x%4").arg(scene.x()).arg(scene.y()).arg(scene.width()).arg(scene.height())));
            QVERIFY(scene.width() > minimap->viewport()->width() / 3 || scene.height() > minimap->viewport()->height() / 3);
            const QImage image = minimap->viewport()->grab().toImage();
            const QRgb background = image.pixel(1, 1);
            int drawn = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    drawn += image.pixel(x, y) != background;
            QVERIFY2(drawn > 500, qPrintable(QString::number(drawn)));
        }
    }

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
