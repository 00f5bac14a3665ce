// SPDX-License-Identifier: MIT
// costscope-cli evaluate: leave-one-family-out on the CPU over two small zoo families, the report's JSON, and the
// exit codes of bad input (an unknown family, a missing file, one family only, a backend this machine lacks).
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace costscope::test;

class TestCliEvaluate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

    void leavesEachFamilyOut()
    {
        QByteArray out, err;
        // The RLX set's CPU profile stands in for a calibration (no calibration in a unit test); small graphs only.
        const QString saved = m_home.filePath("runs.json");
        const int code =
            runCli({"evaluate", "--profile", "rlx-linux/cpu", "--families", "mlp,resnet", "--batches", "1",
                    "--max-gflop", "0.05", "--budget", "0.02", "--no-sampler", "--json", "--save-runs", saved},
                   &out, &err, 300000);
        QVERIFY2(code == 0, err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["protocol"].toString(), QString("leave-one-family-out"));
        QCOMPARE(j["families"].toArray(), (QJsonArray{"mlp", "resnet"}));
        const QJsonArray models = j["models"].toArray();
        QStringList names;
        for (const auto& m : models)
            names << m.toObject()["model"].toString();
        QCOMPARE(names,
                 (QStringList{"rlx parity", "costscope analytic", "costscope class-corrected", "costscope learned"}));
        const int graphs = models[0].toObject()["graphs"].toObject()["count"].toInt();
        QVERIFY(graphs >= 4);
        for (const auto& m : models) {
            const QJsonObject g = m.toObject()["graphs"].toObject();
            QCOMPARE(g["count"].toInt(), graphs);
            QVERIFY(g["within_10"].toDouble() <= g["within_25"].toDouble());
            QVERIFY(m.toObject()["nodes"].toObject()["count"].toInt() > graphs);
        }
        QCOMPARE(j["predictions"].toArray().size(), 4 * graphs);
        for (const auto& p : j["predictions"].toArray())
            QVERIFY(p.toObject()["measured_ns"].toDouble() > 0 && p.toObject()["predicted_ns"].toDouble() > 0);
        QVERIFY(!j["worst"].toArray().isEmpty() && !j["worst_nodes"].toArray().isEmpty());
        // Graphs over --max-gflop are named as skipped, not silently dropped.
        bool skippedNamed = false;
        for (const auto& n : j["notes"].toArray())
            skippedNamed = skippedNamed || n.toString().startsWith("skipped resnet");
        QVERIFY(skippedNamed);

        // The saved measurements judged again, nothing run: the same graphs, measurements and predictions.
        QByteArray again;
        QCOMPARE(runCli({"evaluate", "--runs", saved, "--json"}, &again, &err, 300000), 0);
        const QJsonObject k = QJsonDocument::fromJson(again).object();
        QCOMPARE(k["backend"].toString(), QString("cpu"));
        QCOMPARE(k["profile"].toString(), j["profile"].toString());
        const QJsonArray before = j["predictions"].toArray(), after = k["predictions"].toArray();
        QCOMPARE(after.size(), before.size());
        for (qsizetype i = 0; i < before.size(); ++i) {
            const QJsonObject a = before[i].toObject(), b = after[i].toObject();
            QCOMPARE(b["graph"].toString(), a["graph"].toString());
            QCOMPARE(b["measured_ns"].toDouble(), a["measured_ns"].toDouble());
            QVERIFY2(std::abs(b["predicted_ns"].toDouble() / a["predicted_ns"].toDouble() - 1) < 1e-9,
                     qPrintable(a["model"].toString() + " " + a["graph"].toString()));
        }
    }

    void savedRunsBadInputIsNamed()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"evaluate", "--runs", "/nonexistent/runs.json"}, &out, &err), 3);
        QVERIFY2(err.contains("/nonexistent/runs.json"), err.constData());
        const QString notRuns = m_home.filePath("not-runs.json");
        QFile f(notRuns);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"nodes": []})");
        f.close();
        QCOMPARE(runCli({"evaluate", "--runs", notRuns}, &out, &err), 3);
        QVERIFY2(err.contains("not a saved evaluation"), err.constData());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"costscope_eval_runs": 1, "backend": "cpu", "profile": {)");
        f.close();
        QCOMPARE(runCli({"evaluate", "--runs", notRuns}, &out, &err), 3);
        QVERIFY2(err.contains("not JSON"), err.constData());
    }

    void badInputIsNamed()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"evaluate", "--families", "nope"}, &out, &err), 2);
        QVERIFY(err.contains("unknown zoo family 'nope'"));
        QCOMPARE(runCli({"evaluate", "--profile", "rlx-linux/cpu", "--no-zoo", "/nonexistent/model.onnx"}, &out, &err),
                 3);
        QVERIFY(err.contains("/nonexistent/model.onnx: no such file"));
        QCOMPARE(runCli({"evaluate", "--profile", "rlx-linux/cpu", "--families", "mlp", "--batches", "1",
                         "--no-sampler", "--max-gflop", "0.05", "--budget", "0.02"},
                        &out, &err, 300000),
                 3);
        QVERIFY2(err.contains("at least two families"), err.constData());
        QCOMPARE(runCli({"evaluate", "--profile", "no-such-profile"}, &out, &err), 3);
        QCOMPARE(runCli({"evaluate", "--batches", "0"}, &out, &err), 2);
    }

private:
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestCliEvaluate)
#include "test_cli_evaluate.moc"
