// SPDX-License-Identifier: MIT
// The use-case layer that costscope-cli and the GUI both call: binding parsing, the one profile-resolution rule,
// the save-format switch, report building and export, and a run between two host probes.
#include "analysis/profile_io.h"
#include "analysis/rlx_profiles.h"
#include "analysis/run_predictions.h"
#include "formats/costscope_document.h"
#include "formats/graph_file.h"
#include "synthetic.h"
#include "usecases/bindings_parse.h"
#include "usecases/host_adjusted_run.h"
#include "usecases/profile_resolution.h"
#include "usecases/report_export.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;

namespace {

// x[batch, 64] → Relu: no parameters, so it runs on the CPU backend without tensor data.
Graph reluGraph()
{
    Graph g;
    g.name = "relu";
    Attrs x, relu;
    x.set("name", std::string("x"));
    relu.set("op", std::string("Relu"));
    Shape s = Shape::of({0, 64});
    s.dims[0] = Dim::named("batch");
    Node in;
    in.id = 0;
    in.op = Op::make(OpKind::Input, x);
    in.shape = s;
    Node act;
    act.id = 1;
    act.op = Op::make(OpKind::Activation, relu);
    act.inputs = {0};
    act.shape = s;
    act.name = "act";
    g.add(in);
    g.add(act);
    g.outputs = {1};
    return g;
}

DeviceProfile userProfile(const std::string& name)
{
    DeviceProfile p = *findProfile(rlxProfileSet("rlx-linux"), Device::Cpu);
    p.name = name;
    p.sgemmGflops = 12345;
    return p;
}

} // namespace

class TestUseCases : public QObject {
    Q_OBJECT
private slots:
    void parsesBindingsAndNamesTheBadOne()
    {
        auto b = parseBindings({"batch=8", "seq=128", "batch=4"});
        QVERIFY(b);
        QCOMPARE(b->size(), std::size_t(2));
        QCOMPARE(b->at("batch"), std::int64_t(4)); // the later binding wins
        QCOMPARE(b->at("seq"), std::int64_t(128));
        QVERIFY(parseBindings({})->empty());
        for (const char* bad : {"batch", "=3", "batch=", "batch=-1", "batch=3x", "batch=1.5"}) {
            auto r = parseBindings({"seq=1", bad});
            QVERIFY2(!r, bad);
            QVERIFY2(r.error().message == std::string("bad --bind '") + bad + "': expected SYMBOL=N with N >= 0",
                     r.error().message.c_str());
        }
    }

    void resolvesProfilesByOneRule()
    {
        QTemporaryDir dir;
        ProfileLibrary lib = ProfileLibrary::load({"", dir.filePath("user").toStdString(), ""});
        QVERIFY(lib.saveUserProfile(userProfile("Cuda")));
        QVERIFY(lib.saveUserProfile(userProfile("my-box")));
        // 1. A device name is the parity set's profile, even where a user profile has that name.
        auto cuda = resolveProfile("Cuda", lib);
        QVERIFY(cuda);
        QCOMPARE(cuda->name, std::string("rlx-linux/cuda"));
        auto appleCpu = resolveProfile("cpu", lib, "rlx-apple");
        QVERIFY(appleCpu);
        QCOMPARE(appleCpu->name, std::string("rlx-apple/cpu"));
        // 2. A library profile by name.
        auto mine = resolveProfile("my-box", lib);
        QVERIFY(mine);
        QCOMPARE(mine->sgemmGflops, 12345.0);
        // 3. A profile of any RLX set.
        auto setProfile = resolveProfile("rlx-apple/cpu", lib);
        QVERIFY(setProfile);
        QVERIFY(setProfile->device == Device::Cpu);
        // 4. A file.
        const QString file = dir.filePath("file-box.json");
        QVERIFY(writeFileAtomic(file.toStdString(), profileToJsonText(userProfile("file-box"))));
        auto fromFile = resolveProfile(file.toStdString(), lib);
        QVERIFY2(fromFile, fromFile ? "" : fromFile.error().message.c_str());
        QCOMPARE(fromFile->name, std::string("file-box"));
        // Nothing: the error says what was looked for.
        auto none = resolveProfile("nope", lib);
        QVERIFY(!none);
        QVERIFY(none.error().message.find("unknown profile 'nope'") != std::string::npos);
        auto noDevice = resolveProfile("Cpu", lib, "no-such-set");
        QVERIFY(!noDevice);
        QVERIFY(noDevice.error().message.find("in profile set no-such-set") != std::string::npos);
    }

    void saveSwitchWritesDocumentOrGraphAndRefusesTheRest()
    {
        QTemporaryDir dir;
        CostscopeDocument doc;
        doc.graph = reluGraph();
        doc.bindings["batch"] = 16;
        doc.costModel = "costscope";
        const std::string document = dir.filePath("a.costscope").toStdString();
        QVERIFY(saveDocumentFile(doc, document));
        auto back = parseCostscopeDocument(*readFileBytes(document));
        QVERIFY(back);
        QCOMPARE(back->bindings.at("batch"), std::int64_t(16));
        QCOMPARE(back->costModel, std::string("costscope"));
        const std::string json = dir.filePath("a.json").toStdString();
        QVERIFY(saveDocumentFile(doc, json));
        auto loaded = loadGraphFile(json);
        QVERIFY(loaded);
        QVERIFY(loaded->format == GraphFormat::RlxJson);
        QVERIFY(loaded->graph == doc.graph);
        auto onnx = saveDocumentFile(doc, dir.filePath("a.onnx").toStdString());
        QVERIFY(!onnx);
        QVERIFY(onnx.error().message.find("does not write ONNX") != std::string::npos);
        auto unknown = saveDocumentFile(doc, dir.filePath("a.txt").toStdString());
        QVERIFY(!unknown);
        QVERIFY(unknown.error().message.find("unknown output format") != std::string::npos);
        QVERIFY(!QFile::exists(dir.filePath("a.txt")));
    }

    void buildsReportsWithTheirSweepAndWritesEveryFormat()
    {
        const Graph g = reluGraph();
        const auto model = makeCostModel("rlx");
        const std::vector<DeviceProfile> profiles = rlxProfileSet("rlx-linux");
        ReportRequest request;
        request.source = "relu.json";
        request.model = model.get();
        request.profiles = {profiles[0], profiles[1]};
        request.bindings = {{"batch", 8}};
        auto r = buildAnalysisReport(g, request);
        QVERIFY(r);
        QCOMPARE(r->devices.size(), std::size_t(2));
        QVERIFY(r->sweep); // the graph has a free batch: 1..256
        QCOMPARE(r->sweep->values.front(), std::int64_t(1));
        QCOMPARE(r->sweep->values.back(), std::int64_t(256));
        request.sweepValues = "2,4";
        QCOMPARE(buildAnalysisReport(g, request)->sweep->values, (std::vector<std::int64_t>{2, 4}));
        request.sweepSymbol = "seq";
        request.sweepValues.clear();
        QVERIFY(!buildAnalysisReport(g, request)->sweep); // no such symbol, no sweep asked for
        request.sweepValues = "x";
        auto bad = buildAnalysisReport(g, request);
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("bad --sweep 'x'") != std::string::npos);

        QTemporaryDir dir;
        int renderAsks = 0;
        const RendererSource noRenderer = [&] {
            ++renderAsks;
            return Result<const render::RenderPlugin*>(Diagnostic::error("no renderer here"));
        };
        for (const std::string name : {"r.html", "r.csv", "r.json", "r.nodedata.json", "r.svg"}) {
            const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
            auto written = writeReport(*r, reportFormatOfPath(path), path, noRenderer);
            QVERIFY2(written, name.c_str());
            QVERIFY(readFileBytes(path)->size() > 20);
        }
        QCOMPARE(renderAsks, 0); // only PNG and PDF ask for the renderer
        auto png = writeReport(*r, "png", dir.filePath("r.png").toStdString(), noRenderer);
        QVERIFY(!png);
        QCOMPARE(png.error().message, std::string("no renderer here"));
        QCOMPARE(renderAsks, 1);
        auto docx = writeReport(*r, "docx", dir.filePath("r.docx").toStdString(), noRenderer);
        QVERIFY(!docx);
        QVERIFY(docx.error().message.find("unknown report format 'docx'") != std::string::npos);
        QCOMPARE(reportFormatOfPath("/a/B.NodeData.JSON"), std::string("node-data"));
        QCOMPARE(reportFormatOfPath("x.PDF"), std::string("pdf"));
        QCOMPARE(reportFormatOfPath("noext"), std::string());
        for (const std::string& f : reportFormats())
            QVERIFY(f == "node-data" || f == reportFormatOfPath("r." + f));
    }

    void runBetweenHostProbesOnlyWhenAskedAndCalibrated()
    {
        const Graph g = reluGraph();
        const Bindings b = {{"batch", 4}};
        auto backend = makeBackend("cpu");
        QVERIFY(backend);
        auto plan = backend->compile(g, b, 0);
        QVERIFY(plan);
        QVERIFY((*plan)->uploadParameters());
        QVERIFY((*plan)->setInputs({arangeInput((*plan)->inputs()[0].dims, (*plan)->inputs()[0].dtype)}));
        MeasureOptions options;
        options.warmupRuns = 0;
        options.timedRuns = 2;
        auto predicted = predictRun(g, b, "cpu", "");
        QVERIFY2(predicted, predicted ? "" : predicted.error().message.c_str());
        predicted->costscopeProfile.hostProbe = {}; // as if uncalibrated, whatever this machine's library holds
        std::string problem;
        // Without a probe of its own calibration the profile is not adjusted, asked or not.
        QVERIFY(measureHostAdjusted(*backend, 0, **plan, options, g, b, *predicted, true, &problem));
        QVERIFY(!predicted->hostSpeed);
        predicted->costscopeProfile.hostProbe = {1e6, 1e5, 1e6, 1e4};
        QVERIFY(measureHostAdjusted(*backend, 0, **plan, options, g, b, *predicted, false, &problem));
        QVERIFY(!predicted->hostSpeed); // --no-host-probe
        auto measured = measureHostAdjusted(*backend, 0, **plan, options, g, b, *predicted, true, &problem);
        QVERIFY(measured);
        QCOMPARE(measured->whole.runs, 2);
        QVERIFY2(problem.empty(), problem.c_str());
        QVERIFY(predicted->hostSpeed);
        QVERIFY(predicted->hostSpeed->gemm > 0);
        QVERIFY(predicted->costscopeHost.totalNs > 0);
    }
};

QTEST_GUILESS_MAIN(TestUseCases)
#include "test_use_cases.moc"
