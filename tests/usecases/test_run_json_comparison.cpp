// SPDX-License-Identifier: MIT
// A run JSON read back as a RunComparison (a remote run's answer, a Ray sweep's cell): the same per-node times and
// the same predictions as the `costscope-cli run --per-node --json` that wrote it, its graph at the run's batch, and
// a clear error for a run that is not one.
#include "formats/graph_file.h"
#include "test_paths.h"
#include "usecases/run_json_comparison.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;
using namespace costscope::test;
using Json = nlohmann::ordered_json;

class TestRunJsonComparison : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8()); // the CLI and this test price under the same profiles
        QByteArray out, err;
        QVERIFY2(runCli({"run", sourcePath("resources/examples/cnn.hir.json"), "--runs", "2", "--warmup", "0",
                         "--per-node", "--no-host-probe", "--batch", "3", "--json"},
                        &out, &err)
                     == 0,
                 err.constData());
        m_run = Json::parse(out.toStdString());
    }

    void matchesTheRunThatWroteIt()
    {
        auto graph = graphOfRunJson(m_run);
        QVERIFY2(graph, graph ? "" : graph.error().message.c_str());
        QCOMPARE(graph->nodes.front().shape.dims.front().value, std::int64_t(3)); // the run's --batch
        auto run = compareRunJson(std::make_shared<const Graph>(std::move(*graph)), m_run, {}, "cpu here");
        QVERIFY2(run, run ? "" : run.error().message.c_str());
        QCOMPARE(run->deviceName, std::string("cpu here"));
        QCOMPARE(run->whole.medianNs, m_run["whole"]["median_ns"].get<std::int64_t>());
        QCOMPARE(run->whole.runs, 2);
        const Json& perNode = m_run["per_node"];
        QCOMPARE(run->nodes.size(), perNode.size());
        for (std::size_t i = 0; i < perNode.size(); ++i) {
            QCOMPARE(run->nodes[i].id, perNode[i]["id"].get<NodeId>());
            QCOMPARE(run->nodes[i].measuredNs, perNode[i]["measured_ns"].get<double>());
            // Priced here as the CLI priced it there (the same profiles).
            QCOMPARE(run->nodes[i].rlxNs, perNode[i]["predicted_ns"]["rlx"].get<double>());
            QCOMPARE(run->nodes[i].costscopeNs, perNode[i]["predicted_ns"]["costscope"].get<double>());
        }
        QCOMPARE(run->costscopeTotalNs, m_run["predicted"]["costscope"]["total_ns"].get<double>());
    }

    void saysWhatIsWrong()
    {
        auto graph = std::make_shared<const Graph>(std::move(*graphOfRunJson(m_run)));
        Json noWhole = m_run;
        noWhole.erase("whole");
        auto run = compareRunJson(graph, noWhole, {}, "cpu");
        QVERIFY(!run);
        QVERIFY2(run.error().message.find("whole") != std::string::npos, run.error().message.c_str());
        QVERIFY(!compareRunJson(graph, m_run, "no-such-profile", "cpu"));

        Json noFile = m_run;
        noFile.erase("file");
        auto missing = graphOfRunJson(noFile);
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.find("\"file\"") != std::string::npos, missing.error().message.c_str());
        Json elsewhere = m_run;
        elsewhere["file"] = "/nonexistent/graph.hir.json";
        auto absent = graphOfRunJson(elsewhere);
        QVERIFY(!absent);
        QVERIFY2(absent.error().message.find("/nonexistent/graph.hir.json") != std::string::npos,
                 absent.error().message.c_str());
    }

private:
    QTemporaryDir m_home;
    Json m_run;
};

QTEST_MAIN(TestRunJsonComparison)
#include "test_run_json_comparison.moc"
