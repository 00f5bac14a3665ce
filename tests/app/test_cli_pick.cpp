// SPDX-License-Identifier: MIT
// costscope-cli pick --policy benchmark:N / RLX_BENCHMARK_PICK=N: the viable devices this machine can run are timed
// on the engine's backends; when none runs, the cost model picks and the output says so.
#include "formats/graph_file.h"
#include "test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace costscope;

namespace {

Shape batchBy(std::int64_t cols)
{
    Shape s = Shape::of({0, cols});
    s.dims[0] = Dim::named("batch");
    return s;
}

Graph mlp()
{
    Graph g;
    g.name = "mlp";
    auto add = [&](OpKind k, std::vector<NodeId> in, Shape s, const char* key = nullptr, const char* value = nullptr) {
        Node n;
        n.id = static_cast<NodeId>(g.nodes.size());
        Attrs a;
        if (key)
            a.set(key, std::string(value));
        n.op = Op::make(k, a);
        n.inputs = std::move(in);
        n.shape = std::move(s);
        g.nodes.push_back(std::move(n));
        return g.nodes.back().id;
    };
    const NodeId x = add(OpKind::Input, {}, batchBy(64), "name", "x");
    const NodeId w = add(OpKind::Param, {}, Shape::of({64, 64}), "name", "w");
    const NodeId mm = add(OpKind::MatMul, {x, w}, batchBy(64));
    g.outputs = {add(OpKind::Activation, {mm}, batchBy(64), "op", "Relu")};
    return g;
}

struct Run {
    int code = -1;
    QJsonObject json;
    QByteArray err;
};

Run pick(const QStringList& args, const QStringList& vars = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* v : {"RLX_BENCHMARK_PICK", "COSTSCOPE_BENCHMARK_PICK", "RLX_DEVICE", "COSTSCOPE_DEVICE",
                          "RLX_FORCE_DEVICE", "COSTSCOPE_FORCE_DEVICE", "RLX_DEVICE_CHAIN", "COSTSCOPE_DEVICE_CHAIN"})
        env.remove(v);
    for (const QString& v : vars)
        env.insert(v.section('=', 0, 0), v.section('=', 1));
    p.setProcessEnvironment(env);
    p.start(costscope::test::cliPath(), QStringList{"pick"} + args);
    p.waitForFinished(120000);
    return {p.exitCode(), QJsonDocument::fromJson(p.readAllStandardOutput()).object(), p.readAllStandardError()};
}

QJsonObject findDevice(const QJsonArray& list, const QString& device)
{
    for (const QJsonValue& v : list)
        if (v.toObject()["device"].toString() == device)
            return v.toObject();
    return {};
}

} // namespace

class TestCliPick : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_file = m_dir.filePath("mlp.json");
        QVERIFY(saveGraphFile(mlp(), m_file.toStdString()).ok());
    }

    void benchmarkPolicyTimesTheCpu()
    {
        const Run r = pick({m_file, "--bind", "batch=32", "--policy", "benchmark:3", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["reason"].toString(), QString("benchmark"));
        const QJsonObject bench = r.json["benchmark"].toObject();
        const QJsonArray ranking = bench["ranking"].toArray();
        QVERIFY(!ranking.isEmpty());
        // The pick is the fastest device that ran; the ranking is fastest first.
        QCOMPARE(r.json["pick"].toString(), ranking[0].toObject()["device"].toString());
        for (qsizetype i = 1; i < ranking.size(); ++i)
            QVERIFY(ranking[i - 1].toObject()["median_ns"].toDouble() <= ranking[i].toObject()["median_ns"].toDouble());
        const QJsonObject cpu = findDevice(ranking, "Cpu");
        QVERIFY(!cpu.isEmpty());
        QVERIFY(cpu["median_ns"].toDouble() > 0);
        QCOMPARE(cpu["runs"].toInt(), 3);
        // Devices without a backend here are named with the reason, not silently dropped.
        const QJsonObject metal = findDevice(bench["not_benchmarked"].toArray(), "Metal");
        QCOMPARE(metal["reason"].toString(), QString("no local backend for it in this build"));
        QVERIFY(r.err.isEmpty());
    }

    void environmentAsksForTheBenchmark()
    {
        const Run r = pick({m_file, "--bind", "batch=8", "--allow", "cpu", "--json"}, {"RLX_BENCHMARK_PICK=2"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["reason"].toString(), QString("benchmark"));
        QCOMPARE(r.json["pick"].toString(), QString("Cpu"));
        const QJsonObject bench = r.json["benchmark"].toObject();
        QCOMPARE(bench["ranking"].toArray().size(), 1);
        QCOMPARE(bench["ranking"].toArray()[0].toObject()["runs"].toInt(), 2);
        QVERIFY(bench["not_benchmarked"].toArray().isEmpty());
    }

    void costPolicyDoesNotBenchmark()
    {
        const Run r = pick({m_file, "--bind", "batch=8", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["reason"].toString(), QString("cost model"));
        QVERIFY(!r.json.contains("benchmark"));
    }

    // RLX 0.2.16 (the default) ranks only the models that are not Uncalibrated: under rlx-linux that is the CPU
    // alone, whatever the estimates; --rlx-version 0.2.14 ranks every model. At batch 65536 the CPU is not the
    // cheapest, so the two rules differ, and the report says which devices were left out and why.
    void rlxVersionDecidesTheCostModelPick()
    {
        const Run now = pick({m_file, "--bind", "batch=65536", "--json"});
        const Run old = pick({m_file, "--bind", "batch=65536", "--rlx-version", "0.2.14", "--json"});
        QCOMPARE(now.code, 0);
        QCOMPARE(old.code, 0);
        QCOMPARE(now.json["rlx_version"].toString(), QString("0.2.16"));
        QCOMPARE(old.json["rlx_version"].toString(), QString("0.2.14"));
        QString lowest;
        double lowestNs = 0;
        const QJsonArray devices = now.json["devices"].toArray();
        const QJsonArray oldDevices = old.json["devices"].toArray();
        QCOMPARE(devices.size(), oldDevices.size());
        for (qsizetype i = 0; i < devices.size(); ++i) {
            const QJsonObject d = devices[i].toObject();
            const QString name = d["device"].toString();
            const double ns = d["estimate_ns"].toDouble();
            QCOMPARE(oldDevices[i].toObject()["estimate_ns"].toDouble(), ns); // costs do not change
            QCOMPARE(d["calibration"].toString(), QString(name == "Cpu" ? "ArchDefault" : "Uncalibrated"));
            QCOMPARE(d["left_out"].toString().isEmpty(), name == "Cpu");
            QVERIFY(oldDevices[i].toObject()["left_out"].toString().isEmpty());
            if (lowest.isEmpty() || ns < lowestNs) { // devices come in priority order: the first wins ties
                lowest = name;
                lowestNs = ns;
            }
        }
        QVERIFY2(lowest != "Cpu", qPrintable(lowest));
        QCOMPARE(old.json["pick"].toString(), lowest);
        QCOMPARE(now.json["pick"].toString(), QString("Cpu"));
        QVERIFY(findDevice(devices, "Cuda")["left_out"].toString().contains("Uncalibrated model (RLX 0.2.16"));
        // Only Uncalibrated candidates: both rules take the lowest.
        const Run gpus = pick({m_file, "--bind", "batch=65536", "--allow", "cuda,rocm,gpu", "--json"});
        const Run gpusOld =
            pick({m_file, "--bind", "batch=65536", "--allow", "cuda,rocm,gpu", "--rlx-version", "0.2.14", "--json"});
        QCOMPARE(gpus.json["pick"].toString(), gpusOld.json["pick"].toString());
        QVERIFY(findDevice(gpus.json["devices"].toArray(), "Cuda")["left_out"].toString().isEmpty());

        QProcess text;
        text.start(costscope::test::cliPath(), {"pick", m_file, "--bind", "batch=65536"});
        QVERIFY(text.waitForFinished(120000));
        const QByteArray out = text.readAllStandardOutput();
        QVERIFY2(out.contains("RLX 0.2.16 pick rule"), out.constData());
        QVERIFY2(out.contains("Uncalibrated") && out.contains("left out of the ranking"), out.constData());
    }

    void unknownRlxVersionIsAUsageError()
    {
        const Run r = pick({m_file, "--rlx-version", "0.3", "--json"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--rlx-version: unknown RLX version '0.3'"), r.err.constData());
    }

    // An unbound symbol: nothing compiles, so the cost model picks, and both stderr and the notes say so.
    void fallbackIsNotSilent()
    {
        Run r = pick({m_file, "--allow", "cpu,cuda", "--policy", "benchmark:1", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["reason"].toString(), QString("cost model"));
        QVERIFY2(r.err.contains("the benchmark pick ran no device on this machine; the cost model picked"),
                 r.err.constData());
        QVERIFY(r.err.contains("Cpu: does not compile"));
        QVERIFY(r.json["notes"].toArray().contains(QString("benchmark pick could not run: cost-model pick used")));
        const QJsonObject bench = r.json["benchmark"].toObject();
        QVERIFY(bench["ranking"].toArray().isEmpty());
        QVERIFY(findDevice(bench["not_benchmarked"].toArray(), "Cpu")["reason"].toString().startsWith("does not compile"));

        QProcess text;
        text.start(costscope::test::cliPath(), {"pick", m_file, "--allow", "cpu", "--policy", "benchmark:1"});
        QVERIFY(text.waitForFinished(120000));
        const QByteArray out = text.readAllStandardOutput();
        QVERIFY2(out.contains("Cpu      not benchmarked: does not compile"), out.constData());
        QVERIFY(out.contains("note: benchmark pick could not run"));
    }

    // --device: the candidates are this machine's devices by id, each under its own profile. The CPU calibrated
    // for itself (calibrate --device all) is estimated under that profile; lavapipe, where installed, is a GPU.
    void deviceListPicksAmongLocalDevices()
    {
        QTemporaryDir home;
        const QString xdg = "XDG_DATA_HOME=" + home.path();
        Run r = pick({m_file, "--bind", "batch=8", "--device", "all,cpu:0", "--json"}, {xdg});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("--device 'all' has no device index"), r.err.constData());

        r = pick({m_file, "--bind", "batch=8", "--device", "local/cpu:0", "--json"}, {xdg});
        QCOMPARE(r.code, 0);
        QJsonObject cpu = r.json["devices"].toArray()[0].toObject();
        QCOMPARE(cpu["id"].toString(), QString("cpu:0"));
        QCOMPARE(cpu["profile"].toString(), QString("rlx-linux/cpu"));
        QCOMPARE(cpu["profile_origin"].toString(), QString("RLX parity"));
        QCOMPARE(r.json["pick"].toString(), QString("cpu:0"));
        QCOMPARE(r.json["reason"].toString(), QString("cost model"));
        QVERIFY2(r.json["why"].toString().startsWith("lowest predicted time"), qPrintable(r.json["why"].toString()));

        QProcess calibrate;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", home.path());
        calibrate.setProcessEnvironment(env);
        calibrate.start(costscope::test::cliPath(),
                        {"calibrate", "--backend", "cpu", "--device", "all", "--quick", "--no-predictors"});
        QVERIFY(calibrate.waitForFinished(300000));
        QCOMPARE(calibrate.exitCode(), 0);
        r = pick({m_file, "--bind", "batch=8", "--device", "cpu:0", "--json"}, {xdg});
        QCOMPARE(r.code, 0);
        cpu = r.json["devices"].toArray()[0].toObject();
        QVERIFY2(cpu["profile"].toString().startsWith("calibrated-cpu-"), qPrintable(cpu["profile"].toString()));
        QCOMPARE(cpu["profile_origin"].toString(), QString("calibrated"));
        QCOMPARE(cpu["calibration"].toString(), QString("Measured"));
        QVERIFY(r.json["why"].toString().contains(cpu["profile"].toString() + " (Measured)"));

        r = pick({m_file, "--bind", "batch=8", "--device", "all", "--json"}, {xdg});
        const bool gpu = r.code == 0;
        if (!gpu) {
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains("--device all: no GPU on this machine (devices here: cpu:0"), r.err.constData());
            QSKIP("no local GPU (lavapipe comes with mesa-vulkan-drivers): the GPU half needs one");
        }
        const QJsonArray gpus = r.json["devices"].toArray();
        QVERIFY(!gpus.isEmpty());
        for (const QJsonValue& v : gpus) {
            QVERIFY(v.toObject()["backend"].toString() != "cpu");
            QVERIFY(v.toObject()["estimate_ns"].toDouble() > 0);
        }
        QVERIFY(r.json["pick"].toString().contains(':'));

        // The CPU beside the first GPU, the GPU's kind preferred; a denied kind is listed with its blocker.
        const QString firstGpu = gpus[0].toObject()["id"].toString();
        r = pick({m_file, "--bind", "batch=8", "--device", "cpu:0," + firstGpu, "--prefer",
                  gpus[0].toObject()["kind"].toString(), "--deny", "cpu", "--json"},
                 {xdg});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["pick"].toString(), firstGpu);
        QCOMPARE(r.json["devices"].toArray()[1].toObject()["blocker"].toString(), QString("denied by policy"));

        // The benchmark times each device named for real and picks the fastest median.
        r = pick({m_file, "--bind", "batch=8", "--device", "cpu:0," + firstGpu, "--policy", "benchmark:2", "--json"},
                 {xdg});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json["reason"].toString(), QString("benchmark"));
        const QJsonArray ranking = r.json["benchmark"].toObject()["ranking"].toArray();
        QCOMPARE(ranking.size(), 2);
        QCOMPARE(r.json["pick"].toString(), ranking[0].toObject()["id"].toString());
    }

    void deviceErrorsNameTheDevice()
    {
        Run r = pick({m_file, "--device", "cuda:7"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("--device: no local device 'cuda:7' (devices here: cpu:0"), r.err.constData());
        r = pick({m_file, "--device", "gpu7/cuda:0"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("'gpu7/cuda:0' is a device of remote host 'gpu7'"), r.err.constData());
        r = pick({m_file, "--device", "cuda:0", "--device-hint", "cuda"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--device-hint names a device kind"));
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
};

QTEST_GUILESS_MAIN(TestCliPick)
#include "test_cli_pick.moc"
