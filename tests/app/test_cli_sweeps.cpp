// SPDX-License-Identifier: MIT
// costscope-cli welch-peaks sweep and sweep --gates: the numbers are the library's (gate_sweep.h), exactly.
#include "analysis/gate_sweep.h"
#include "analysis/rlx_profiles.h"
#include "analysis/sweep.h"
#include "formats/graph_file.h"
#include "test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace costscope;
using costscope::test::runCli;

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
    const NodeId bias = add(OpKind::Param, {}, Shape::of({64}), "name", "b");
    const NodeId mm = add(OpKind::MatMul, {x, w}, batchBy(64));
    const NodeId sum = add(OpKind::Binary, {mm, bias}, batchBy(64), "op", "Add");
    g.outputs = {add(OpKind::Activation, {sum}, batchBy(64), "op", "Relu")};
    return g;
}

QJsonObject runJson(const QStringList& args)
{
    QByteArray out, err;
    const int rc = runCli(args, &out, &err);
    if (rc != 0)
        qWarning("costscope-cli %s: exit %d: %s", qPrintable(args.join(' ')), rc, err.constData());
    return QJsonDocument::fromJson(out).object();
}

std::vector<std::int64_t> values(const QJsonObject& j)
{
    std::vector<std::int64_t> v;
    for (const QJsonValue& x : j["values"].toArray())
        v.push_back(x.toInteger());
    return v;
}

// A JSON score list against the library's; null stands for +infinity (a strategy not open).
void compareNs(const QJsonArray& json, const std::vector<double>& lib)
{
    QCOMPARE(json.size(), qsizetype(lib.size()));
    for (qsizetype i = 0; i < json.size(); ++i) {
        if (std::isinf(lib[static_cast<std::size_t>(i)]))
            QVERIFY(json[i].isNull());
        else
            QCOMPARE(json[i].toDouble(), lib[static_cast<std::size_t>(i)]);
    }
}

void compareCurve(const QJsonObject& j, const GateCurve& c)
{
    QCOMPARE(j["target"].toString(), QString::fromStdString(c.label));
    QCOMPARE(j["min_gain_ns"].toDouble(), c.minGainNs);
    compareNs(j["score_ns"].toArray(), c.scoreNs);
    const QJsonArray fuse = j["should_fuse"].toArray();
    QCOMPARE(fuse.size(), qsizetype(c.fuse.size()));
    for (qsizetype i = 0; i < fuse.size(); ++i)
        QCOMPARE(fuse[i].toBool(), bool(c.fuse[static_cast<std::size_t>(i)]));
}

} // namespace

class TestCliSweeps : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_file = m_dir.filePath("mlp.json");
        QVERIFY(saveGraphFile(mlp(), m_file.toStdString()).ok());
        m_graph = loadGraphFile(m_file.toStdString())->graph;
    }

    void welchPeaksSweepEqualsLibrary_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("set");
        QTest::newRow("cpu linux") << "cpu" << "rlx-linux";
        QTest::newRow("cuda linux") << "cuda" << "rlx-linux";
        QTest::newRow("gpu apple") << "gpu" << "rlx-apple";
    }

    void welchPeaksSweepEqualsLibrary()
    {
        QFETCH(QString, device);
        QFETCH(QString, set);
        const QJsonObject j = runJson({"welch-peaks", "sweep", "--values", "1:16384:x2", "--device", device,
                                       "--profiles", set, "--learned", "1/8", "--json"});
        QCOMPARE(j["profiles"].toString(), set);
        QCOMPARE(j["n_fft"].toInt(), 256);
        QCOMPARE(j["k"].toInt(), 16);
        QCOMPARE(j["learned_gates"].toString(), QStringLiteral("1/8"));
        const std::vector<std::int64_t> batches = values(j);
        QCOMPARE(batches, *parseSweepValues("1:16384:x2"));
        const auto profiles = rlxProfileSet(set.toStdString());
        const std::vector<GateCurve> gates = welchGateSweep(profiles, batches, 256, 16);
        const QJsonArray jGates = j["gates"].toArray();
        QCOMPARE(jGates.size(), qsizetype(gates.size()));
        for (std::size_t t = 0; t < gates.size(); ++t) {
            const QJsonObject g = jGates[static_cast<qsizetype>(t)].toObject();
            QCOMPARE(g["device"].toString(), QString::fromUtf8(deviceName(welchGateDevices()[t]).data()));
            compareCurve(g, gates[t]);
        }
        const Device d = *parseDevice(device.toStdString());
        const WelchStrategySweep s = welchStrategySweep(profiles, d, batches, 256, 16, {true, 1, 8});
        const QJsonObject js = j["strategies"].toObject();
        QCOMPARE(js["device"].toString(), QString::fromUtf8(deviceName(d).data()));
        const char* keys[] = {"ultra_ns", "fast_ns", "rlx_ns", "learned_ns"};
        for (std::size_t k = 0; k < 4; ++k)
            compareNs(js[keys[k]].toArray(), s.ns[k]);
        const QJsonArray picks = js["pick"].toArray();
        QCOMPARE(picks.size(), qsizetype(s.pick.size()));
        for (std::size_t i = 0; i < s.pick.size(); ++i)
            QCOMPARE(picks[static_cast<qsizetype>(i)].toString(),
                     QString::fromUtf8(welchStrategyName(s.pick[i]).data()));
    }

    void welchPeaksSweepText()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"welch-peaks", "sweep", "--values", "256,8192", "--device", "cuda"}, &out, &err), 0);
        QVERIFY(out.contains("fusion-gate score"));
        QVERIFY(out.contains("Welch-peaks strategies on Cuda"));
        QVERIFY(out.contains("rlx")); // Cuda picks rlx at 8192
        QCOMPARE(runCli({"welch-peaks", "sweep", "--values", "0,8"}, &out, &err), 2);
        QVERIFY(err.contains("positive"));
        QCOMPARE(runCli({"welch-peaks", "sweep"}, &out, &err), 2);
        QCOMPARE(runCli({"welch-peaks", "nope"}, &out, &err), 2);
    }

    void sweepGatesEqualLibrary()
    {
        const QJsonObject j = runJson({"sweep", m_file, "--values", "1:4096:x4", "--device", "cpu", "--gates", "3,4,5",
                                       "--bind", "other=2", "--json"});
        const QJsonObject gates = j["gates"].toObject();
        QCOMPARE(gates["nodes"].toArray(), (QJsonArray{3, 4, 5}));
        auto curves = fuseGateSweep(m_graph, {3, 4, 5}, "batch", values(j), {{"other", 2}});
        QVERIFY(curves.ok());
        const QJsonArray targets = gates["targets"].toArray();
        QCOMPARE(targets.size(), qsizetype(curves->size()));
        for (std::size_t t = 0; t < curves->size(); ++t)
            compareCurve(targets[static_cast<qsizetype>(t)].toObject(), (*curves)[t]);
        // Without --gates the JSON is as before.
        QVERIFY(!runJson({"sweep", m_file, "--values", "1,2", "--json"}).contains("gates"));
    }

    void sweepGatesTextAndErrors()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"sweep", m_file, "--values", "1,64", "--gates", "3,4"}, &out, &err), 0);
        QVERIFY(out.contains("fusion-gate score of fusing the nodes"));
        QVERIFY(out.contains("Cuda"));
        QCOMPARE(runCli({"sweep", m_file, "--values", "1,64", "--gates", "3,99"}, &out, &err), 2);
        QVERIFY(err.contains("99"));
        QCOMPARE(runCli({"sweep", m_file, "--values", "1,64", "--gates", "x"}, &out, &err), 2);
        QCOMPARE(runCli({"sweep", m_file, "--values", "1,64", "--gates", "3", "--csv"}, &out, &err), 2);
    }

private:
    QTemporaryDir m_dir;
    QString m_file;
    Graph m_graph;
};

QTEST_GUILESS_MAIN(TestCliSweeps)
#include "test_cli_sweeps.moc"
