// SPDX-License-Identifier: MIT
#include "test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace costscope::test;

namespace {
QJsonObject runJson(const QStringList& args)
{
    QByteArray out, err;
    const int rc = runCli(args, &out, &err);
    if (rc != 0)
        qWarning("costscope-cli %s: exit %d: %s", qPrintable(args.join(' ')), rc, err.constData());
    return QJsonDocument::fromJson(out).object();
}

QJsonObject gate(const QString& device, int batch)
{
    return runJson({"gate", "welch-peaks", "--device", device, "--batch", QString::number(batch), "--json"});
}
} // namespace

class TestCliGate : public QObject {
    Q_OBJECT
private slots:
    void welchGateJsonKeys();
    void welchGateMatrix();
    void welchCosts();
    void fuseWhatIf();
    void pickReport();
    void pickReadsEnvironment();
    void textOutput();
    void badArgumentsAndFiles();
};

void TestCliGate::welchGateJsonKeys()
{
    const QJsonObject j = gate("metal", 1024);
    QCOMPARE(j.keys().size(), 10);
    for (const char* key : {"device", "batch", "n_fft", "k", "score_ns", "min_gain_ns", "readback_saved_bytes",
                            "sync_points_saved", "should_fuse_io", "should_fuse"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["device"].toString(), QString("Metal"));
    QCOMPARE(j["batch"].toInt(), 1024);
    QCOMPARE(j["n_fft"].toInt(), 256);
    QCOMPARE(j["k"].toInt(), 16);
    // −500 − 5000 − 4325376/200 + 4063232 − 2000000.
    QVERIFY(qAbs(j["score_ns"].toDouble() - 2036105.12) < 1e-6);
    QCOMPARE(j["min_gain_ns"].toDouble(), 1000.0);
    QCOMPARE(j["readback_saved_bytes"].toInteger(), 4063232);
    QCOMPARE(j["sync_points_saved"].toInt(), -1);
    QVERIFY(j["should_fuse_io"].toBool());
}

void TestCliGate::welchGateMatrix()
{
    QVERIFY(!gate("metal", 256)["should_fuse"].toBool());
    for (int b : {1024, 4096, 8192})
        QVERIFY(gate("metal", b)["should_fuse"].toBool());
    for (const char* d : {"gpu", "vulkan"}) {
        QVERIFY(!gate(d, 256)["should_fuse"].toBool());
        QVERIFY(!gate(d, 1024)["should_fuse"].toBool());
        for (int b : {4096, 8192}) {
            const QJsonObject j = gate(d, b);
            QVERIFY(j["should_fuse"].toBool());
            QCOMPARE(j["sync_points_saved"].toInt(), 0);
        }
    }
    QVERIFY(gate("cuda", 4096)["should_fuse"].toBool());
    QVERIFY(gate("cuda", 8192)["should_fuse"].toBool());
}

void TestCliGate::welchCosts()
{
    QJsonObject j = runJson({"welch-peaks", "costs", "--device", "cpu", "--batch", "32", "--json"});
    QCOMPARE(j.keys().size(), 6);
    QCOMPARE(j["learned_gates"].toString(), QString("off")); // no learned gates unless --learned gives them
    QCOMPARE(j["pick"].toString(), QString("ultra"));
    QVERIFY(j["rlx_ns"].isNull());
    QVERIFY(j["learned_ns"].isNull());
    // fast b=32 on the CPU row: 3000 + 96·300 + 200704/30 + (4096 + 50176)/30.
    QVERIFY(qAbs(j["fast_ns"].toDouble() - 40299.2) < 1e-6);
    j = runJson({"welch-peaks", "costs", "--device", "gpu", "--batch", "1024", "--json"});
    QCOMPARE(j["pick"].toString(), QString("fast"));
    QVERIFY(j["ultra_ns"].isNull());
    j = runJson({"welch-peaks", "costs", "--device", "cuda", "--batch", "8192", "--json"});
    QCOMPARE(j["pick"].toString(), QString("rlx"));
    j = runJson({"welch-peaks", "costs", "--device", "gpu", "--batch", "8192", "--learned", "1/8", "--json"});
    QCOMPARE(j["pick"].toString(), QString("learned"));
    QCOMPARE(j["learned_gates"].toString(), QString("1/8"));
}

void TestCliGate::fuseWhatIf()
{
    COSTSCOPE_REQUIRE_SHARED();
    const QString mnist = sharedPath("data/rlx/mnist.hir.json");
    QJsonObject j = runJson({"gate", "fuse", mnist, "--nodes", "9,10", "--json"});
    const QJsonArray verdicts = j["verdicts"].toArray();
    QCOMPARE(verdicts.size(), 7);
    QCOMPARE(j["benefit"].toObject()["device_traffic_bytes_saved"].toInteger(), 200704);
    int checked = 0;
    for (const auto& v : verdicts) {
        const QJsonObject o = v.toObject();
        if (o["target"] == QString("Metal") && ++checked)
            QVERIFY(o["should_fuse"].toBool()); // 500 + 200704/200 ≥ 1000
        if (o["target"] == QString("Wgpu") && ++checked)
            QVERIFY(!o["should_fuse"].toBool()); // 3000 + 200704/100 < 10000
    }
    QCOMPARE(checked, 2);
    j = runJson({"gate", "fuse", mnist, "--nodes", "9,10", "--device", "vulkan", "--json"});
    QCOMPARE(j["verdicts"].toArray().size(), 1);
    QCOMPARE(j["verdicts"].toArray()[0].toObject()["target"].toString(), QString("Wgpu"));
    QByteArray out, err;
    QCOMPARE(runCli({"gate", "fuse", mnist, "--nodes", "9,12"}, &out, &err), 2);
    QVERIFY(err.contains("not connected"));
}

void TestCliGate::pickReport()
{
    COSTSCOPE_REQUIRE_SHARED();
    const QString mnist = sharedPath("data/rlx/mnist.hir.json");
    QJsonObject j = runJson({"pick", mnist, "--json"});
    QCOMPARE(j["devices"].toArray().size(), 12);
    QCOMPARE(j["pick"].toString(), QString("Cpu")); // 65434 ns beats the fallback's 78238 and Cuda's 81931
    j = runJson({"pick", mnist, "--deny", "cpu,tpu,mlx,metal,ane", "--json"});
    QCOMPARE(j["pick"].toString(), QString("Cuda"));
    int checked = 0;
    for (const auto& v : j["devices"].toArray())
        if (v.toObject()["device"] == QString("Cpu") && ++checked)
            QCOMPARE(v.toObject()["blocker"].toString(), QString("denied by policy"));
    QCOMPARE(checked, 1);
    j = runJson({"pick", mnist, "--allow", "gpu,vulkan", "--device-hint", "vulkan", "--json"});
    QCOMPARE(j["pick"].toString(), QString("Vulkan"));
    QCOMPARE(j["reason"].toString(), QString("hint"));
}

void TestCliGate::pickReadsEnvironment()
{
    COSTSCOPE_REQUIRE_SHARED();
    auto pickWith = [](const QStringList& vars) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString& v : vars)
            env.insert(v.section('=', 0, 0), v.section('=', 1));
        p.setProcessEnvironment(env);
        p.start(cliPath(), {"pick", sharedPath("data/rlx/mnist.hir.json"), "--json"});
        p.waitForFinished(60000);
        return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    };
    // COSTSCOPE_ wins over RLX_ when both are set.
    QJsonObject j = pickWith({"RLX_DEVICE=cuda", "COSTSCOPE_DEVICE=vulkan"});
    QCOMPARE(j["pick"].toString(), QString("Vulkan"));
    QCOMPARE(j["reason"].toString(), QString("RLX_DEVICE"));
    j = pickWith({"RLX_FORCE_DEVICE=rocm"});
    QCOMPARE(j["pick"].toString(), QString("Rocm"));
    j = pickWith({"RLX_DEVICE_CHAIN=gpu,cpu", "RLX_DENY_DEVICES=gpu"});
    QCOMPARE(j["pick"].toString(), QString("Cpu"));
}

void TestCliGate::textOutput()
{
    QByteArray out, err;
    QCOMPARE(runCli({"gate", "welch-peaks", "--device", "vulkan", "--batch", "1024"}, &out, &err), 0);
    QVERIFY(out.contains("should fuse        no"));
    QCOMPARE(runCli({"welch-peaks", "costs", "--device", "gpu", "--batch", "256"}, &out, &err), 0);
    QVERIFY(out.contains("pick     fast"));
    QVERIFY(out.contains("ultra    not open"));
}

void TestCliGate::badArgumentsAndFiles()
{
    QByteArray out, err;
    QCOMPARE(runCli({"gate", "welch-peaks", "--device", "metal"}, &out, &err), 2);
    QVERIFY(err.contains("usage"));
    QCOMPARE(runCli({"gate", "welch-peaks", "--device", "nope", "--batch", "8"}, &out, &err), 2);
    QCOMPARE(runCli({"gate", "welch-peaks", "--device", "cpu", "--batch", "0"}, &out, &err), 2);
    QCOMPARE(runCli({"welch-peaks", "costs", "--device", "cpu", "--batch", "8", "--learned", "9/2"}, &out, &err), 2);
    QCOMPARE(runCli({"gate", "fuse", "/nonexistent.hir.json", "--nodes", "1"}, &out, &err), 3);
    QCOMPARE(runCli({"pick", "/nonexistent.hir.json"}, &out, &err), 3);
    QCOMPARE(runCli({"pick", "x.json", "--policy", "fastest"}, &out, &err), 2);
    QCOMPARE(runCli({"gate", "teleport"}, &out, &err), 2);
}

QTEST_GUILESS_MAIN(TestCliGate)
#include "test_cli_gate.moc"
