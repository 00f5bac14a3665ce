// SPDX-License-Identifier: MIT
// Labels legible at fit (issue 22): a graph of a hundred or two nodes, fitted in a 1280×800 window, shows its boxes'
// op names at a readable size on screen (7 px and more), because the canvas folds a long layered drawing into
// columns instead of one tall strip and a zoomed-out box says one short word. Larger graphs are measured and their
// zoom at fit bounded (prints: zoom, median label height, share of legible labels).
#include "canvas_driving.h"
#include "test_paths.h"
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>
#include <algorithm>

using namespace costscope;
using test::openAndWait;

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
        QTest::addColumn<double>("legibleOps"); // the share of op boxes whose label must read
        QTest::addColumn<double>(
            "leastZoom"); // a bound on the zoom at fit (before wrapping: 0.34, 0.26, 0.08, 0.12, 0.10)
        QTest::newRow("cnn example (53 nodes)")
            << test::sourcePath(QStringLiteral("resources/examples/cnn.hir.json")) << 0.9 << 0.4;
        QTest::newRow("tiny transformer (55 nodes)")
            << test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")) << 0.9 << 0.45;
        QTest::newRow("gpt2 tiny (125 nodes)")
            << test::testDataPath(QStringLiteral("hf/gpt2_tiny_fp32.onnx")) << 0.9 << 0.2;
        if (!test::sharedDir().isEmpty()) {
            // Half of squeezenet's "ops" are the light model's ConstantOfShape weights, whose long op name is
            // squeezed; inception's 354 boxes are past what a fitted window reads: its Relus come out at 6 px.
            QTest::newRow("squeezenet (158 nodes)")
                << test::sharedPath(QStringLiteral("data/onnx/light/light_squeezenet.onnx")) << 0.5 << 0.2;
            QTest::newRow("inception v1 (354 nodes)")
                << test::sharedPath(QStringLiteral("data/onnx/light/light_inception_v1.onnx")) << 0.0 << 0.14;
        }
    }

    void labelsLegibleAtFit()
    {
        QFETCH(QString, file);
        QFETCH(double, legibleOps);
        QFETCH(double, leastZoom);
        MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, file));
        const FitMeasure m = measureAtFit(w);
        const QRectF all = w.scene()->itemsBoundingRect();
        qInfo("%s: %d boxes, drawing %.0fx%.0f, canvas %dx%d, zoom at fit %.3f, median op label %.1f px, legible: %.0f "
              "%% of ops, %.0f %% of weights",
              QTest::currentDataTag(), m.boxes, all.width(), all.height(), w.canvas()->viewport()->width(),
              w.canvas()->viewport()->height(), m.zoom, m.medianLabelPixels, 100 * m.legibleShare,
              100 * m.paramLegibleShare);
        QVERIFY(m.boxes > 0);
        QVERIFY2(m.zoom >= leastZoom, qPrintable(QStringLiteral("zoom at fit %1").arg(m.zoom)));
        QVERIFY2(m.legibleShare >= legibleOps,
                 qPrintable(QStringLiteral("only %1 % of op labels legible at fit").arg(100 * m.legibleShare)));
    }
};

QTEST_MAIN(TestFitLegibility)
#include "test_fit_legibility.moc"
