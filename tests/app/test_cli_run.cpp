// SPDX-License-Identifier: MIT
// costscope-cli devices and run: JSON shape, output checks and exit codes.
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace costscope::test;

class TestCliRun : public QObject {
    Q_OBJECT
private slots:
    void devicesListsTheCpu();
    void runReportsTimings();
    void referenceChecks();
    void badArgumentsAreUsageErrors();
    void inputThatIsNotATensorIsBadInput();
    void traceHoldsTheRunAndThePredictions();
};

void TestCliRun::devicesListsTheCpu()
{
    QByteArray out;
    QCOMPARE(runCli({"devices", "--json"}, &out), 0);
    const QJsonObject j = QJsonDocument::fromJson(out).object();
    const QJsonArray devices = j["devices"].toArray();
    QVERIFY(!devices.isEmpty());
    QCOMPARE(devices[0].toObject()["backend"].toString(), QString("cpu"));
    QVERIFY(devices[0].toObject()["compute_units"].toInt() >= 1);
}

void TestCliRun::runReportsTimings()
{
    COSTSCOPE_REQUIRE_SHARED();
    QByteArray out, err;
    const int code = runCli({"run", sharedPath("data/rlx/mnist.hir.json"), "--backend", "cpu", "--runs", "3",
                             "--warmup", "1", "--per-node", "--json"},
                            &out, &err);
    QVERIFY2(code == 0, err.constData());
    const QJsonObject j = QJsonDocument::fromJson(out).object();
    const QJsonObject whole = j["whole"].toObject();
    QCOMPARE(whole["runs"].toInt(), 3);
    QVERIFY(whole["median_ns"].toDouble() > 0);
    QVERIFY(whole["min_ns"].toDouble() <= whole["median_ns"].toDouble());
    QVERIFY(whole["max_ns"].toDouble() >= whole["median_ns"].toDouble());
    const QJsonArray nodes = j["per_node"].toArray();
    QVERIFY(!nodes.isEmpty());
    for (const QJsonValue& n : nodes)
        QVERIFY(n.toObject().contains("measured_ns") && n.toObject().contains("op"));
    QVERIFY(!j.contains("check"));
    QCOMPARE(j["fusion"].toString(), QString("on")); // the default; the CPU backend runs one kernel per node anyway
    for (const QJsonValue& n : nodes)
        QVERIFY(!n.toObject().contains("fused_nodes"));
}

void TestCliRun::referenceChecks()
{
    COSTSCOPE_REQUIRE_SHARED();
    QTemporaryDir tmp;
    const QString saved = tmp.filePath("mnist_out.pb"), other = tmp.filePath("cnn_out.pb");
    const QString mnist = sharedPath("data/rlx/mnist.hir.json");
    QCOMPARE(runCli({"run", mnist, "--runs", "1", "--warmup", "0", "--save-output", saved}), 0);
    QByteArray out;
    QCOMPARE(runCli({"run", mnist, "--runs", "1", "--warmup", "0", "--reference", saved, "--json"}, &out), 0);
    QJsonObject check = QJsonDocument::fromJson(out).object()["check"].toObject();
    QCOMPARE(check["pass"].toBool(), true);
    QCOMPARE(check["max_abs_error"].toDouble(), 0.0);
    QCOMPARE(runCli({"run", mnist, "--runs", "1", "--warmup", "0", "--reference", "cpu"}), 0);
    // A reference of another graph's output does not match: exit code 4 and pass false.
    QCOMPARE(runCli({"run", sharedPath("data/rlx/cnn.hir.json"), "--runs", "1", "--save-output", other}), 0);
    QCOMPARE(runCli({"run", mnist, "--runs", "1", "--warmup", "0", "--reference", other, "--json"}, &out), 4);
    check = QJsonDocument::fromJson(out).object()["check"].toObject();
    QCOMPARE(check["pass"].toBool(), false);
}

void TestCliRun::badArgumentsAreUsageErrors()
{
    QByteArray out, err;
    QCOMPARE(runCli({"run"}, &out, &err), 2);
    QCOMPARE(runCli({"run", "x.json", "--bind", "batch"}, &out, &err), 2);
    QVERIFY(err.contains("--bind"));
    QCOMPARE(runCli({"run", "x.json", "--runs", "0"}, &out, &err), 2);
    QCOMPARE(runCli({"run", "x.json", "--fusion", "maybe"}, &out, &err), 2);
    QVERIFY(err.contains("--fusion expects on, off or compare"));
    QCOMPARE(runCli({"run", "x.json", "--backend", "nope"}, &out, &err), 2);
    QCOMPARE(runCli({"run", "/nonexistent/graph.json"}, &out, &err), 3);
    QCOMPARE(runCli({"devices", "extra"}, &out, &err), 2);
}

// ONNX's test_identity_opt feeds an optional(sequence(tensor)) value: its input_0.pb is an OptionalProto, which
// the TensorProto reader took for a tensor of about 10^12 elements and costscope-cli crashed allocating it.
void TestCliRun::inputThatIsNotATensorIsBadInput()
{
    const QString dir = testDataPath("onnx_optional_input");
    QByteArray out, err;
    QCOMPARE(runCli({"run", dir + "/identity_opt.onnx", "--runs", "1", "--warmup", "0", "--no-host-probe", "--input",
                     dir + "/identity_opt_input_0.pb"},
                    &out, &err),
             3);
    QVERIFY2(err.contains("identity_opt_input_0.pb"), err.constData());
}

// run --trace: one slice per timed node on the measured process, the same nodes on each predicted one.
void TestCliRun::traceHoldsTheRunAndThePredictions()
{
    QTemporaryDir tmp;
    const QString trace = tmp.filePath("cnn.trace.json");
    QByteArray out, err;
    const int code = runCli({"run", sourcePath("resources/examples/cnn.hir.json"), "--runs", "1", "--warmup", "0",
                             "--no-host-probe", "--json", "--trace", trace},
                            &out, &err);
    QVERIFY2(code == 0, err.constData());
    const QJsonArray perNode = QJsonDocument::fromJson(out).object()["per_node"].toArray();
    QVERIFY(!perNode.isEmpty()); // --trace times every node without --per-node
    QFile file(trace);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray events = QJsonDocument::fromJson(file.readAll()).object()["traceEvents"].toArray();
    QMap<int, QStringList> processes;
    QMap<int, QList<double>> measuredByPid;
    QList<QJsonObject> predictedSlices; // the Costscope model's process
    for (const QJsonValue& v : events) {
        const QJsonObject e = v.toObject();
        if (e["name"] == QLatin1String("process_name"))
            processes[e["pid"].toInt()] << e["args"].toObject()["name"].toString();
        if (e["cat"] == QLatin1String("node"))
            measuredByPid[e["pid"].toInt()] << e["args"].toObject()["measured_ns"].toDouble();
        if (e["cat"] == QLatin1String("node") && e["pid"].toInt() == 2)
            predictedSlices << e;
    }
    QVERIFY(processes[1].value(0).startsWith("measured: cpu:0"));
    QVERIFY(processes[2].value(0).startsWith("predicted: costscope"));
    QVERIFY(processes[3].value(0).startsWith("predicted: rlx"));
    for (int pid : {1, 2, 3})
        QCOMPARE(measuredByPid[pid].size(), perNode.size());
    for (qsizetype i = 0; i < perNode.size(); ++i) {
        QCOMPARE(measuredByPid[1][i], perNode[i].toObject()["measured_ns"].toDouble());
        // A predicted slice lasts what the model predicts (whole ns, in µs) and says so in its args.
        const double predicted = perNode[i].toObject()["predicted_ns"].toObject()["costscope"].toDouble();
        const QJsonObject slice = predictedSlices[i];
        QCOMPARE(slice["args"].toObject()["predicted_ns"].toObject()["costscope"].toDouble(), predicted);
        QCOMPARE(slice["dur"].toDouble(), std::round(predicted) / 1000.0);
    }
}

QTEST_GUILESS_MAIN(TestCliRun)
#include "test_cli_run.moc"
