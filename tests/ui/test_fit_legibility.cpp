// SPDX-License-Identifier: MIT
// Labels legible at fit (issue 22): a graph of up to about 300 nodes, fitted in a 1280×800 window, shows its boxes'
// op names at a readable size on screen (8 px and more for the median op), because the canvas folds a long layered
// drawing into columns of the canvas's own shape instead of one tall strip, and a zoomed-out box says one short word.
// Prints per graph: zoom, median label height, share of legible labels. The fold follows the canvas when the window
// is resized.
#include "canvas_driving.h"
#include "test_paths.h"
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>
#include <algorithm>

using namespace costscope;
using test::openAndWait;
using test::showAndOpen;

namespace {

// Smaller than this many pixels on screen, a label is not read but guessed.
constexpr double kLegiblePixels = 7.0;

struct FitMeasure {
    double zoom = 0;
    double medianLabelPixels = 0;
    double legibleShare = 0;      // op boxes whose label is at least kLegiblePixels high
    double paramLegibleShare = 1; // the same of weights' boxes (their leaf name)
    int boxes = 0;
};

FitMeasure measureAtFit(MainWindow& w)
{
    w.canvas()->fitAll();
    FitMeasure m;
    m.zoom = w.canvas()->zoom();
    std::vector<double> pixels, params;
    for (QGraphicsItem* item : w.scene()->items())
        if (const auto* box = qgraphicsitem_cast<NodeItem*>(item))
            (box->style() == NodeItem::Style::Param || box->style() == NodeItem::Style::Constant ? params : pixels)
                .push_back(box->labelScreenPixels(m.zoom));
    auto legible = [](const std::vector<double>& p) {
        return p.empty() ? 1.0 : static_cast<double>(std::count_if(p.begin(), p.end(), [](double x) {
                                     return x >= kLegiblePixels;
                                 })) / static_cast<double>(p.size());
    };
    if (pixels.empty())
        return m;
    std::sort(pixels.begin(), pixels.end());
    m.boxes = static_cast<int>(pixels.size() + params.size());
    m.medianLabelPixels = pixels[pixels.size() / 2];
    m.legibleShare = legible(pixels);
    m.paramLegibleShare = legible(params);
    return m;
}

} // namespace

class TestFitLegibility : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void labelsLegibleAtFit_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("legibleOps");   // the share of op boxes whose label must read
        QTest::addColumn<double>("medianPixels"); // the least median op label, in pixels
        // A bound on the zoom at fit (unfolded: 0.34, 0.26, 0.08, 0.12, 0.10; folded into a fixed 870x580 with
        // drifting columns: 0.45, 0.51, 0.21, 0.23, 0.14).
        QTest::addColumn<double>("leastZoom");
        QTest::newRow("cnn example (53 nodes)")
            << test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json")) << 0.9 << 10.0 << 0.4;
        QTest::newRow("tiny transformer (55 nodes)")
            << test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")) << 0.9 << 10.0 << 0.45;
        QTest::newRow("gpt2 tiny (125 nodes)")
            << test::testDataPath(QStringLiteral("hf/gpt2_tiny_fp32.onnx")) << 0.9 << 9.0 << 0.2;
        // Many of these "ops" are the light models' ConstantOfShape weights, whose long op name is squeezed.
        // Inception's Relus (the median op) read at 8.3 px (6.3 px before its columns stopped drifting sideways and
        // were cut to equal length for the canvas's shape).
        QTest::newRow("squeezenet (158 nodes)")
            << test::sharedPath(QStringLiteral("data/onnx/light/light_squeezenet.onnx")) << 0.5 << 9.0 << 0.2;
        QTest::newRow("inception v1 (354 nodes)")
            << test::sharedPath(QStringLiteral("data/onnx/light/light_inception_v1.onnx")) << 0.5 << 8.0 << 0.18;
    }

    void labelsLegibleAtFit()
    {
        QFETCH(QString, file);
        QFETCH(double, legibleOps);
        QFETCH(double, medianPixels);
        QFETCH(double, leastZoom);
        COSTSCOPE_REQUIRE_SHARED_FILE(file);
        MainWindow w;
        QVERIFY(showAndOpen(w, file));
        const FitMeasure m = measureAtFit(w);
        const QRectF all = w.scene()->itemsBoundingRect();
        qInfo("%s: %d boxes, drawing %.0fx%.0f, canvas %dx%d, zoom at fit %.3f, median op label %.1f px, legible: %.0f "
              "%% of ops, %.0f %% of weights",
              QTest::currentDataTag(), m.boxes, all.width(), all.height(), w.canvas()->maximumViewportSize().width(),
              w.canvas()->maximumViewportSize().height(), m.zoom, m.medianLabelPixels, 100 * m.legibleShare,
              100 * m.paramLegibleShare);
        QVERIFY(m.boxes > 0);
        QVERIFY2(m.zoom >= leastZoom, qPrintable(QStringLiteral("zoom at fit %1").arg(m.zoom)));
        QVERIFY2(m.legibleShare >= legibleOps,
                 qPrintable(QStringLiteral("only %1 % of op labels legible at fit").arg(100 * m.legibleShare)));
        QVERIFY2(m.medianLabelPixels >= medianPixels,
                 qPrintable(QStringLiteral("median op label %1 px at fit").arg(m.medianLabelPixels)));
    }

    // The fold takes the canvas's shape: a window made tall and narrow folds gpt2 into fewer, longer columns (and
    // one made wide into more) once resizing settles, and a fitted view fits the new drawing. A fold fixed at the
    // first window's shape leaves the graph small in the new one.
    void foldFollowsTheCanvas()
    {
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        {
            QSignalSpy refolded(w.scene(), &GraphScene::refolded);
            QVERIFY(openAndWait(w, test::testDataPath(QStringLiteral("hf/gpt2_tiny_fp32.onnx"))));
            QTest::qWait(400);
            QCOMPARE(refolded.size(), 0); // the first layout already had the canvas's shape
        }
        w.canvas()->fitAll();
        for (const QSize size : {QSize(700, 1150), QSize(1900, 650)}) {
            const double before = w.scene()->sceneRect().width() / w.scene()->sceneRect().height();
            QSignalSpy refolded(w.scene(), &GraphScene::refolded);
            QSignalSpy ready(&w, &MainWindow::layoutReady);
            w.resize(size);
            w.canvas()->fitAll();
            const double stale = w.canvas()->zoom(); // the old drawing fitted into the resized canvas
            QVERIFY2(ready.wait(30000), "no layout after the canvas was resized");
            QCOMPARE(refolded.size(), 1);
            const QSizeF canvas = w.canvas()->maximumViewportSize();
            const double after = w.scene()->sceneRect().width() / w.scene()->sceneRect().height();
            qInfo("canvas %.0fx%.0f: drawing aspect %.2f -> %.2f, zoom at fit %.3f -> %.3f", canvas.width(),
                  canvas.height(), before, after, stale, w.canvas()->zoom());
            QVERIFY(w.canvas()->isFitted());
            QVERIFY2(w.canvas()->zoom() > stale * 1.15, "refolding did not enlarge the fitted graph");
            // The drawing now has about the canvas's shape.
            const double aspect = canvas.width() / canvas.height();
            QVERIFY2(after > aspect / 1.6 && after < aspect * 1.6, qPrintable(QString::number(after)));
        }
        // A zoomed view keeps its zoom: only a fitted one is fitted again.
        w.canvas()->zoomBy(2);
        const double zoomed = w.canvas()->zoom();
        QSignalSpy ready(&w, &MainWindow::layoutReady);
        w.resize(1280, 800);
        QVERIFY(ready.wait(30000));
        QCOMPARE(w.canvas()->zoom(), zoomed);
        QVERIFY(!w.canvas()->isFitted());
    }
};

QTEST_MAIN(TestFitLegibility)
#include "test_fit_legibility.moc"
