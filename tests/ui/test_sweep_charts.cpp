// SPDX-License-Identifier: MIT
// The Sweeps panel: plotted series equal costscope-cli sweep / gate / welch-peaks for the same inputs (read back
// from the QCustomPlot graphs), markers sit where the data flips, exports are valid files, stale results are
// dropped, and clicks, legend and canvas selection act on the charts.
#include "canvas/graph_scene.h"
#include "charts/chart_export.h"
#include "charts/sweep_charts.h"
#include "charts/sweep_panel.h"
#include "charts/symlog.h"
#include "analysis/gate_sweep.h"
#include "analysis/rlx_profiles.h"
#include "formats/graph_file.h"
#include "jobs/cost_job.h"
#include "main_window.h"
#include "panels/bindings_editor.h"
#include "test_paths.h"
#include <QImage>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>
#include <set>
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

// The tiny transformer with its sequence length (16) made the symbol "seq": a graph with a binding besides batch.
QString writeSeqGraph(const QTemporaryDir& dir, const QString& source)
{
    QFile src(source);
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

std::vector<double> plotted(const QCPGraph* g)
{
    std::vector<double> ys;
    for (int i = 0; i < g->dataCount(); ++i)
        ys.push_back(g->dataMainValue(i));
    return ys;
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
            // RLX 0.2.16: Cuda and Gpu are Uncalibrated, so their crossovers are drawn and labelled, never picked.
            QVERIFY(!x["picked"].get<bool>());
            QVERIFY(labels[c]->text().contains(QStringLiteral("not picked")));
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

    void learnedStrategyIsSettableAndEqualsCli()
    {
        // Off by default (RLX's default: no learned gates): the learned series is a gap and a note says why.
        QCustomPlot* plot = m_panel->strategyChart();
        QCOMPARE(m_panel->learnedEdit()->text(), QStringLiteral("off"));
        for (double y : plotted(graphNamed(plot, QStringLiteral("learned"))))
            QVERIFY(std::isnan(y));
        const auto notes = itemsNamed<QCPItemText>(plot, QStringLiteral("note"));
        QCOMPARE(notes.size(), 1);
        QVERIFY(notes.front()->text().contains(QStringLiteral("learned: no learned gates")));

        // Set: the plotted learned costs equal welchStrategySweep's and costscope-cli welch-peaks sweep's.
        SweepPanel panel;
        panel.valuesEdit()->setText(QStringLiteral("256:16384:x4"));
        panel.setFocusDevice(QStringLiteral("Cuda"));
        panel.learnedEdit()->setText(QStringLiteral("1/8"));
        panel.nFftSpin()->setValue(512);
        panel.kSpin()->setValue(8);
        QVERIFY(sweepDone(panel));
        const std::vector<std::int64_t> batches = {256, 1024, 4096, 16384};
        const WelchStrategySweep lib =
            welchStrategySweep(rlxProfileSet("rlx-linux"), Device::Cuda, batches, 512, 8, {true, 1, 8});
        const Json j = cliJson({"welch-peaks", "sweep", "--values", "256:16384:x4", "--device", "cuda", "--n-fft",
                                "512", "--k", "8", "--learned", "1/8", "--json"});
        QVERIFY(!j.is_null());
        QCOMPARE(j["learned_gates"].get<std::string>(), std::string("1/8"));
        const char* names[] = {"ultra", "fast", "rlx", "learned"};
        int finiteLearned = 0;
        for (std::size_t s = 0; s < 4; ++s) {
            QCPGraph* g = graphNamed(panel.strategyChart(), QString::fromLatin1(names[s]));
            QVERIFY(g);
            const std::vector<double> ys = plotted(g);
            QCOMPARE(ys.size(), batches.size());
            const Json& cli = j["strategies"][std::string(names[s]) + "_ns"];
            for (std::size_t i = 0; i < batches.size(); ++i) {
                if (std::isinf(lib.ns[s][i])) {
                    QVERIFY2(std::isnan(ys[i]) && cli[i].is_null(), names[s]);
                    continue;
                }
                QVERIFY2(close(ys[i], lib.ns[s][i]) && close(ys[i], cli[i].get<double>()), names[s]);
                finiteLearned += s == 3;
            }
        }
        QVERIFY(finiteLearned > 0); // Cuda's gate fuses at 4096 and 16384: the learned strategy is open there
        for (std::size_t i = 0; i < batches.size(); ++i)
            QCOMPARE(panel.data().strategyPick[i], static_cast<int>(lib.pick[i]));
        for (auto* note : itemsNamed<QCPItemText>(panel.strategyChart(), QStringLiteral("note")))
            QVERIFY2(!note->text().contains(QStringLiteral("learned")), qPrintable(note->text()));

        panel.learnedEdit()->setText(QStringLiteral("9/2"));
        panel.recompute();
        QVERIFY(panel.statusText().contains(QStringLiteral("learned gates")));
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

    // A profile's series is named by the profile ("apple-m3-max"), and so are its crossovers (not "Metal"); a
    // crossover's marker hides with either of its series.
    void crossoversNameAndFollowTheirSeries()
    {
        qputenv("COSTSCOPE_PROFILES_DIR", test::sourcePath("resources/profiles").toUtf8());
        reloadProfileLibrary();
        SweepPanel panel;
        panel.resize(1600, 1000);
        panel.show();
        panel.valuesEdit()->setText(QStringLiteral("1:65536:x4"));
        panel.devicesEdit()->setText(QStringLiteral("Cpu,apple-m3-max"));
        auto loaded = loadGraphFile(m_file.toStdString());
        QVERIFY(loaded);
        panel.setGraph(std::make_shared<const Graph>(std::move(loaded->graph)));
        QVERIFY(sweepDone(panel));
        const SweepData& d = panel.data();
        QVERIFY2(d.error.empty(), d.error.c_str());
        QCOMPARE(d.deviceLabels, (std::vector<std::string>{"Cpu", "apple-m3-max"}));
        QVERIFY(!d.sweep.crossovers.empty());
        for (const Crossover& c : d.sweep.crossovers) {
            QVERIFY2(c.text.rfind(d.deviceLabels[c.to] + " beats " + d.deviceLabels[c.from], 0) == 0, c.text.c_str());
            QVERIFY2(c.text.find("Metal") == std::string::npos, c.text.c_str());
        }
        QCustomPlot* plot = panel.costChart();
        const auto lines = itemsNamed<QCPItemStraightLine>(plot, QStringLiteral("crossover"));
        const auto labels = itemsNamed<QCPItemText>(plot, QStringLiteral("crossover"));
        QCOMPARE(lines.size(), static_cast<int>(d.sweep.crossovers.size()));
        QCPGraph* m3 = graphNamed(plot, QStringLiteral("apple-m3-max"));
        QVERIFY(m3);
        emit plot->legendClick(plot->legend, plot->legend->itemWithPlottable(m3), nullptr);
        for (int i = 0; i < lines.size(); ++i)
            QVERIFY(!lines[i]->visible() && !labels[i]->visible());
        emit plot->legendClick(plot->legend, plot->legend->itemWithPlottable(m3), nullptr);
        for (int i = 0; i < lines.size(); ++i)
            QVERIFY(lines[i]->visible() && labels[i]->visible());
    }

    void sweepStartsFromAllBindings()
    {
        QTemporaryDir dir;
        const QString file = writeSeqGraph(dir, m_file);
        QVERIFY(!file.isEmpty());
        MainWindow window;
        window.setErrorReporter([](const QString&, const QString& message) { qWarning("%s", qPrintable(message)); });
        auto* panel = window.findChild<SweepPanel*>();
        QVERIFY(panel);
        panel->valuesEdit()->setText(kValues);
        panel->devicesEdit()->setText(QStringLiteral("Cpu,Cuda"));
        QSignalSpy applied(panel, &SweepPanel::resultsApplied);
        window.openFile(file);
        QVERIFY(applied.wait(120000));
        QSpinBox* seq = window.bindingsEditor()->spinFor("seq");
        QVERIFY(seq);

        // A binding set in the Bindings editor, not the toolbar's batch, recomputes the sweep from it.
        seq->setValue(7);
        const Json j = cliJson({"sweep", file, "--values", kValues, "--device", "Cpu", "--device", "Cuda", "--bind",
                                "seq=7", "--json"});
        QVERIFY(!j.is_null());
        const Json one = cliJson({"sweep", file, "--values", kValues, "--device", "Cpu", "--bind", "seq=1", "--json"});
        QVERIFY(!one.is_null());
        QVERIFY(one["devices"][0]["total_ns"] != j["devices"][0]["total_ns"]); // seq matters on this graph
        const auto equalsCli = [&] {
            for (const Json& d : j["devices"]) {
                QCPGraph* g = graphNamed(panel->costChart(), QString::fromStdString(d["device"].get<std::string>()));
                if (!g || g->dataCount() != static_cast<int>(kValueList.size()))
                    return false;
                for (int i = 0; i < g->dataCount(); ++i)
                    if (!close(g->dataMainValue(i), d["total_ns"][static_cast<std::size_t>(i)].get<double>()))
                        return false;
            }
            return true;
        };
        QVERIFY(QTest::qWaitFor(equalsCli, 120000));
        SweepRequest req;
        req.values = kValueList;
        req.base = window.bindingsEditor()->bindings();
        QCOMPARE(req.base.at("seq"), std::int64_t(7));
        req.profiles = {*profileForDeviceName("Cpu")};
        const SweepResult lib = runSweep(*window.graph(), *makeCostModel("rlx"), req);
        const std::vector<double> cpu = plotted(graphNamed(panel->costChart(), QStringLiteral("Cpu")));
        for (std::size_t i = 0; i < kValueList.size(); ++i)
            QVERIFY(close(cpu[i], lib.totalNs[i][0]));

        // Any symbol can be swept; a click then sets that symbol's binding, not the batch.
        panel->symbolEdit()->setText(QStringLiteral("seq"));
        QVERIFY(sweepDone(*panel));
        QCOMPARE(panel->data().symbol, std::string("seq"));
        QVERIFY(panel->data().symbolInGraph);
        QCOMPARE(panel->costChart()->xAxis->label(), QStringLiteral("seq"));
        const int batch = window.batchSpin()->value();
        emit panel->valueClicked(16);
        QCOMPARE(seq->value(), 16);
        QCOMPARE(window.batchSpin()->value(), batch);
        panel->symbolEdit()->setText(QStringLiteral("nosuch"));
        QVERIFY(sweepDone(*panel));
        QVERIFY(!panel->data().symbolInGraph);
        QVERIFY(panel->statusText().contains(QStringLiteral("no symbol 'nosuch'")));
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
        QVERIFY(panel->shareChart()->graph(0)->selected());
        QVERIFY(panel->shareChart()->selectedGraphs() == QList<QCPGraph*>{panel->shareChart()->graph(0)});
        QVERIFY(panel->shareChart()->legend->itemWithPlottable(panel->shareChart()->graph(0))->font().bold());
        // "Fuse selection" scores the canvas selection, with a label where each target's decision flips.
        emit panel->fuseRequested();
        QVERIFY(applied.wait(120000));
        QVERIFY(graphNamed(panel->gateChart(), QStringLiteral("Cuda (selection)")));
        for (const GateCurve& c : panel->data().fuseGates) {
            QList<double> expected, found;
            for (std::size_t i = 1; i < c.fuse.size(); ++i)
                if (c.fuse[i] != c.fuse[i - 1])
                    expected << static_cast<double>(panel->data().values[i]);
            const QString name = QStringLiteral("flip:") + QString::fromStdString(c.label);
            for (auto* line : itemsNamed<QCPItemStraightLine>(panel->gateChart(), name))
                found << line->point1->coords().x();
            QCOMPARE(found, expected);
        }
        // The selection stays highlighted across the recomputation.
        QVERIFY(panel->shareChart()->graph(0)->selected());

        // A node outside the top nodes gets a curve of its own, highlighted.
        std::set<NodeId> shown;
        for (const ShareCurve& c : panel->data().shares)
            if (!c.other)
                shown.insert(c.node);
        int outside = -1;
        for (std::size_t i = nodes.size(); i-- > 0;)
            if (!shown.count(nodes[i].id) && nodes[i].op.info().opClass != OpClass::Leaf) {
                outside = static_cast<int>(i);
                break;
            }
        QVERIFY(outside >= 0);
        const NodeId outsideId = nodes[static_cast<std::size_t>(outside)].id;
        QVERIFY(window.scene()->selectNodeId(outsideId));
        QCOMPARE(panel->highlightedNode(), std::optional(outsideId));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QList<QCPGraph*> selected = panel->shareChart()->selectedGraphs();
                return selected.size() == 1 && selected.front()->property("node").toLongLong() == outsideId;
            },
            120000));
        QCOMPARE(panel->shareChart()->graphCount(), kTopNodes + 2);
    }
};

QTEST_MAIN(TestSweepCharts)
#include "test_sweep_charts.moc"
