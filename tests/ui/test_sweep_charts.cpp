// SPDX-License-Identifier: MIT
// The Sweeps panel: plotted series equal costscope-cli sweep / gate / welch-peaks for the same inputs (read back
// from the QCustomPlot graphs), markers sit where the data flips, exports are valid files, stale results are
// dropped, and clicks, legend and canvas selection act on the charts.
#include "canvas/graph_scene.h"
#include "charts/chart_export.h"
#include "charts/sweep_charts.h"
#include "charts/sweep_panel.h"
#include "charts/symlog.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include "test_paths.h"
#include <QImage>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

using namespace costscope;
using Json = nlohmann::json;

namespace {
const QString kValues = QStringLiteral("1:1024:x4");
const std::vector<std::int64_t> kValueList = {1, 4, 16, 64, 256, 1024};

Json cliJson(const QStringList& args)
{
    QByteArray out, err;
    const int rc = test::runCli(args, &out, &err);
    if (rc != 0)
        qWarning("costscope-cli %s: %s", qPrintable(args.join(' ')), err.constData());
    return rc == 0 ? Json::parse(out.toStdString()) : Json();
}

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name)
            return plot->graph(i);
    return nullptr;
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

template <class Item>
QList<Item*> itemsNamed(QCustomPlot* plot, const QString& name)
{
    QList<Item*> items;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* it = qobject_cast<Item*>(plot->item(i)); it && it->objectName() == name)
            items << it;
    return items;
}
} // namespace

class TestSweepCharts : public QObject {
    Q_OBJECT
private:
    QString m_file;
    std::unique_ptr<SweepPanel> m_panel;

    bool sweepDone(SweepPanel& panel)
    {
        QSignalSpy spy(&panel, &SweepPanel::resultsApplied);
        panel.recompute();
        return spy.wait(120000);
    }

private slots:
    void initTestCase()
    {
        m_file = test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json"));
        auto loaded = loadGraphFile(m_file.toStdString());
        QVERIFY(loaded);
        m_panel = std::make_unique<SweepPanel>();
        m_panel->resize(1600, 1000);
        m_panel->show();
        m_panel->valuesEdit()->setText(kValues);
        m_panel->devicesEdit()->setText(QStringLiteral("Cpu,Cuda,Gpu"));
        m_panel->setFocusDevice(QStringLiteral("Cuda"));
        m_panel->setGraph(std::make_shared<const Graph>(std::move(loaded->graph)));
        QVERIFY(sweepDone(*m_panel));
        QCOMPARE(m_panel->data().values, kValueList);
    }

    void costSeriesEqualCliSweep()
    {
        const Json j = cliJson({"sweep", m_file, "--values", kValues, "--device", "Cpu", "--device", "Cuda",
                                "--device", "Gpu", "--json"});
        QVERIFY(!j.is_null());
        QCustomPlot* plot = m_panel->costChart();
        QCOMPARE(plot->graphCount(), 3);
        for (const Json& d : j["devices"]) {
            QCPGraph* g = graphNamed(plot, QString::fromStdString(d["device"].get<std::string>()));
            QVERIFY(g);
            QCOMPARE(g->dataCount(), static_cast<int>(kValueList.size()));
            for (int i = 0; i < g->dataCount(); ++i) {
                QCOMPARE(g->dataMainKey(i), static_cast<double>(kValueList[static_cast<std::size_t>(i)]));
                QVERIFY2(close(g->dataMainValue(i), d["total_ns"][static_cast<std::size_t>(i)].get<double>()),
                         qPrintable(g->name()));
            }
        }
        // One marker line and one label per crossover, at the interpolated equal-cost point.
        const auto lines = itemsNamed<QCPItemStraightLine>(plot, QStringLiteral("crossover"));
        const auto labels = itemsNamed<QCPItemText>(plot, QStringLiteral("crossover"));
        QCOMPARE(lines.size(), static_cast<int>(j["crossovers"].size()));
        QVERIFY(!lines.isEmpty()); // Cuda overtakes Cpu inside 1..1024 on this graph
        for (int c = 0; c < lines.size(); ++c) {
            const Json& x = j["crossovers"][static_cast<std::size_t>(c)];
            QVERIFY(close(lines[c]->point1->coords().x(), x["at"].get<double>()));
            QCOMPARE(labels[c]->text(), QString::fromStdString(x["text"].get<std::string>()));
        }
    }

    void gateSeriesEqualCliGate()
    {
        QCustomPlot* plot = m_panel->gateChart();
        const std::vector<std::pair<QString, QString>> targets = {{"Metal", "Metal"}, {"Mlx", "Mlx"},
                                                                  {"Cuda", "Cuda"},   {"Rocm", "Rocm"},
                                                                  {"Gpu", "Wgpu"},    {"Tpu", "Tpu"},
                                                                  {"Cpu", "Cpu"}};
        int flips = 0;
        for (const auto& [device, target] : targets) {
            QCPGraph* g = graphNamed(plot, target);
            QCPGraph* gain = graphNamed(plot, target + QStringLiteral(" min_gain"));
            QVERIFY2(g && gain, qPrintable(target));
            QCOMPARE(g->dataCount(), static_cast<int>(kValueList.size()));
            std::vector<bool> fuse;
            for (std::size_t i = 0; i < kValueList.size(); ++i) {
                const Json j = cliJson({"gate", "welch-peaks", "--device", device, "--batch",
                                        QString::number(kValueList[i]), "--json"});
                QVERIFY(!j.is_null());
                const int k = static_cast<int>(i);
                // Plotted on the symlog scale: the inverse gives the score back.
                QVERIFY(close(g->dataMainValue(k), symlog(j["score_ns"].get<double>())));
                QVERIFY(close(symlogInverse(g->dataMainValue(k)), j["score_ns"].get<double>()));
                QVERIFY(close(symlogInverse(gain->dataMainValue(k)), j["min_gain_ns"].get<double>()));
                fuse.push_back(j["should_fuse"].get<bool>());
            }
            // A flip marker exactly at each value where the CLI's decision changes, and nowhere else.
            QList<double> expected;
            for (std::size_t i = 1; i < fuse.size(); ++i)
                if (fuse[i] != fuse[i - 1])
                    expected << static_cast<double>(kValueList[i]);
            QList<double> found;
            for (auto* line : itemsNamed<QCPItemStraightLine>(plot, QStringLiteral("flip:") + target))
                found << line->point1->coords().x();
            QCOMPARE(found, expected);
            flips += static_cast<int>(expected.size());
        }
        QVERIFY(flips > 0); // the Welch-peaks gate flips inside 1..1024 for some target
    }

    void strategiesEqualCliWelchPeaks()
    {
        QCustomPlot* plot = m_panel->strategyChart();
        for (std::size_t i = 0; i < kValueList.size(); ++i) {
            const Json j = cliJson({"welch-peaks", "costs", "--device", "Cuda", "--batch",
                                    QString::number(kValueList[i]), "--json"});
            QVERIFY(!j.is_null());
            for (const char* s : {"ultra", "fast", "rlx", "learned"}) {
                QCPGraph* g = graphNamed(plot, QString::fromLatin1(s));
                QVERIFY(g);
                const Json& v = j[std::string(s) + "_ns"];
                const double plotted = g->dataMainValue(static_cast<int>(i));
                if (v.is_null())
                    QVERIFY2(std::isnan(plotted), s); // not open to the device: a gap
                else
                    QVERIFY2(close(plotted, v.get<double>()), s);
            }
            const char* names[] = {"ultra", "fast", "rlx", "learned"};
            QCOMPARE(std::string(names[m_panel->data().strategyPick[i]]), j["pick"].get<std::string>());
        }
    }

    void fuseSelectionEqualsCliFuse()
    {
        const NodeId node = m_panel->data().shares.front().node;
        QSignalSpy spy(m_panel.get(), &SweepPanel::resultsApplied);
        m_panel->setFuseNodes({node});
        QVERIFY(spy.wait(120000));
        QCustomPlot* plot = m_panel->gateChart();
        for (std::size_t i = 0; i < kValueList.size(); i += 5) {
            const Json j = cliJson({"gate", "fuse", m_file, "--nodes", QString::number(node), "--bind",
                                    QStringLiteral("batch=%1").arg(kValueList[i]), "--json"});
            QVERIFY(!j.is_null());
            for (const Json& v : j["verdicts"]) {
                QCPGraph* g = graphNamed(plot, QString::fromStdString(v["target"].get<std::string>())
                                                   + QStringLiteral(" (selection)"));
                QVERIFY(g);
                QVERIFY(close(symlogInverse(g->dataMainValue(static_cast<int>(i))), v["score_ns"].get<double>()));
            }
        }
        m_panel->setFuseNodes({});
        QVERIFY(spy.wait(120000));
        QVERIFY(!graphNamed(plot, QStringLiteral("Cuda (selection)")));
    }

    void sharesStackToOneAndHighlight()
    {
        QCustomPlot* plot = m_panel->shareChart();
        QCOMPARE(plot->graphCount(), kTopNodes + 1);
        QCPGraph* top = plot->graph(plot->graphCount() - 1);
        for (int i = 0; i < top->dataCount(); ++i)
            QVERIFY(close(top->dataMainValue(i), 1.0));
        const SweepData& d = m_panel->data();
        const std::size_t last = kValueList.size() - 1;
        QVERIFY(d.shares.front().share[last] > 0);
        QVERIFY(highlightShare(plot, static_cast<long long>(d.shares.front().node)));
        QCOMPARE(plot->graph(0)->pen().widthF(), 3.0);
        QVERIFY(!highlightShare(plot, -1));
        QCOMPARE(plot->graph(0)->pen().widthF(), 1.0);
    }

    void exportsValidFiles()
    {
        QTemporaryDir dir;
        QString error;
        QCustomPlot* plot = m_panel->costChart();
        const QString png = dir.filePath(QStringLiteral("c.png")), svg = dir.filePath(QStringLiteral("c.svg")),
                      pdf = dir.filePath(QStringLiteral("c.pdf")), csv = dir.filePath(QStringLiteral("c.csv"));
        QVERIFY2(exportChart(plot, png, &error), qPrintable(error));
        QCOMPARE(QImage(png).size(), QSize(1000, 650));
        QVERIFY2(exportChart(plot, svg, &error), qPrintable(error));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("<svg"));
        QXmlStreamReader xml(svgText);
        QString root;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && root.isEmpty())
                root = xml.name().toString();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, QStringLiteral("svg"));
        QVERIFY2(exportChart(plot, pdf, &error), qPrintable(error));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(4) == "%PDF");
        QVERIFY2(exportChartCsv(plot, csv, &error), qPrintable(error));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csvFile.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.front(), QStringLiteral("batch,Cpu,Cuda,Gpu"));
        QCOMPARE(lines.size(), 1 + static_cast<int>(kValueList.size()));
        QCOMPARE(lines[1].split(',').size(), 4);
        QVERIFY(close(lines[2].split(',')[2].toDouble(), m_panel->data().sweep.totalNs[1][1]));
        QVERIFY(!exportChart(plot, dir.filePath(QStringLiteral("c.bmpx")), &error));
        QVERIFY(error.contains(QStringLiteral("unknown chart format")));
    }

    void staleResultsAreDropped()
    {
        SweepPanel panel;
        panel.valuesEdit()->setText(QStringLiteral("1,2"));
        const quint64 first = panel.recompute();
        panel.valuesEdit()->setText(QStringLiteral("1,2,4,8"));
        QSignalSpy spy(&panel, &SweepPanel::resultsApplied);
        const quint64 second = panel.recompute();
        QVERIFY(second > first);
        QVERIFY(spy.wait(120000));
        QTest::qWait(300); // the first request's result, if it were applied late, would land here
        QCOMPARE(spy.count(), 1);
        QCOMPARE(panel.data().values, (std::vector<std::int64_t>{1, 2, 4, 8}));
        SweepData old;
        old.values = {1, 2};
        QVERIFY(!panel.applyResult(first, old));
        QCOMPARE(panel.data().values.size(), std::size_t(4));
    }

    void badValuesAreReported()
    {
        SweepPanel panel;
        panel.valuesEdit()->setText(QStringLiteral("1:x"));
        panel.recompute();
        QVERIFY(panel.statusText().startsWith(QStringLiteral("Values:")));
    }

    void clickSetsBatchAndLegendToggles()
    {
        QCustomPlot* plot = m_panel->costChart();
        QSignalSpy clicked(m_panel.get(), &SweepPanel::valueClicked);
        QCPGraph* g = plot->graph(1);
        const QPointF p = g->coordsToPixels(g->dataMainKey(2), g->dataMainValue(2));
        QTest::mouseClick(plot, Qt::LeftButton, {}, p.toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.front().front().toLongLong(), 16LL);

        emit plot->legendClick(plot->legend, plot->legend->itemWithPlottable(g), nullptr);
        QVERIFY(!g->visible());
        emit plot->legendClick(plot->legend, plot->legend->itemWithPlottable(g), nullptr);
        QVERIFY(g->visible());

        MainWindow window;
        auto* panel = window.findChild<SweepPanel*>();
        QVERIFY(panel);
        emit panel->valueClicked(64);
        QCOMPARE(window.batchSpin()->value(), 64);
    }

    void canvasSelectionHighlightsAndFuses()
    {
        MainWindow window;
        window.setErrorReporter([](const QString&, const QString& message) { qWarning("%s", qPrintable(message)); });
        auto* panel = window.findChild<SweepPanel*>();
        QVERIFY(panel);
        QSignalSpy applied(panel, &SweepPanel::resultsApplied);
        QSignalSpy laidOut(&window, &MainWindow::layoutReady);
        window.openFile(m_file);
        QVERIFY(applied.wait(120000));
        QVERIFY(laidOut.count() > 0 || laidOut.wait(120000));
        // The loaded graph is swept: chart 4's top node is a node of it.
        const NodeId top = panel->data().shares.front().node;
        const auto& nodes = window.graph()->nodes;
        int index = -1;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].id == top)
                index = static_cast<int>(i);
        QVERIFY(index >= 0);
        QVERIFY(window.scene()->selectNode(static_cast<std::size_t>(index)));
        QCOMPARE(panel->shareChart()->graph(0)->pen().widthF(), 3.0);
        // "Fuse selection" scores the canvas selection.
        emit panel->fuseRequested();
        QVERIFY(applied.wait(120000));
        QVERIFY(graphNamed(panel->gateChart(), QStringLiteral("Cuda (selection)")));
    }
};

QTEST_MAIN(TestSweepCharts)
#include "test_sweep_charts.moc"
