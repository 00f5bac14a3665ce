// SPDX-License-Identifier: MIT
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using costscope::test::runCli;

class TestCliReport : public QObject {
    Q_OBJECT
    QString m_file = costscope::test::sourcePath("resources/examples/tiny_transformer.hir.json");
    QTemporaryDir m_dir;

    QJsonObject analyzeJson()
    {
        QByteArray out, err;
        if (runCli({"analyze", m_file, "--bind", "batch=4", "--json"}, &out, &err) != 0)
            return {};
        return QJsonDocument::fromJson(out).object();
    }

private slots:
    void jsonReportEqualsAnalyze()
    {
        const QString path = m_dir.filePath("r.json");
        QByteArray out, err;
        QCOMPARE(runCli({"report", m_file, "--format", "json", "-o", path, "--bind", "batch=4"}, &out, &err), 0);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonObject analyze = analyzeJson();
        const QJsonArray rd = report["devices"].toArray(), ad = analyze["devices"].toArray();
        QCOMPARE(rd.size(), ad.size());
        QVERIFY(!rd.isEmpty());
        for (int i = 0; i < rd.size(); ++i)
            QCOMPARE(rd[i]["total_ns"].toDouble(), ad[i]["total_ns"].toDouble());
        QCOMPARE(report["pick"]["device"].toString(), analyze["pick"].toString());
        QVERIFY(report["sweep"].isObject()); // the example has a free batch symbol
    }

    void everyTextFormatWrites()
    {
        for (const char* format : {"html", "csv", "node-data", "svg"}) {
            const QString path = m_dir.filePath(QStringLiteral("r.%1").arg(format));
            QByteArray out, err;
            QVERIFY2(runCli({"report", m_file, "--format", format, "-o", path}, &out, &err) == 0, err.constData());
            QVERIFY2(QFileInfo(path).size() > 100, format);
        }
    }

    void renderedFormatsWrite()
    {
#ifndef COSTSCOPE_HAVE_RENDERER
        QSKIP("built without the GUI: no renderer plugin for PNG and PDF");
#endif
        for (const char* format : {"png", "pdf"}) {
            const QString path = m_dir.filePath(QStringLiteral("r.%1").arg(format));
            QByteArray out, err;
            const int rc = runCli({"report", m_file, "--format", format, "-o", path}, &out, &err);
            QVERIFY2(rc == 0, err.constData());
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray head = f.read(8);
            QVERIFY(head.startsWith(format == QByteArray("png") ? "\x89PNG" : "%PDF"));
        }
    }

    void badArgumentsAreUsageErrors()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"report", m_file, "--format", "docx", "-o", m_dir.filePath("x")}, &out, &err), 2);
        QVERIFY(err.contains("unknown --format"));
        QCOMPARE(runCli({"report", m_file, "--format", "json"}, &out, &err), 2);
        QCOMPARE(runCli({"report", m_file, "--format", "json", "-o", m_dir.filePath("x"), "--measured",
                         m_dir.filePath("missing.json")}, &out, &err), 3);
    }

    void diffOfAGraphWithItself()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"diff", m_file, m_file, "--json", "--bind", "batch=2"}, &out, &err), 0);
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QVERIFY(j["added"].toArray().isEmpty());
        QVERIFY(j["removed"].toArray().isEmpty());
        QVERIFY(j["changed"].toArray().isEmpty());
        QVERIFY(j["matched"].toInt() > 10);
        for (const QJsonValue d : j["devices"].toArray())
            QCOMPARE(d["delta_ns"].toDouble(), 0.0);
    }

    // The engine's own per-node run is a "measured" source too: its nodes are matched by id.
    void engineRunAsMeasured()
    {
        QByteArray run, err;
        QVERIFY2(runCli({"run", m_file, "--bind", "batch=2", "--per-node", "--runs", "2", "--warmup", "1", "--json"},
                        &run, &err) == 0, err.constData());
        const QString runPath = m_dir.filePath("run.json");
        QFile f(runPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(run);
        f.close();
        const QString path = m_dir.filePath("measured.json");
        QVERIFY2(runCli({"report", m_file, "--format", "json", "-o", path, "--bind", "batch=2", "--measured", runPath,
                         "--measured-device", "Cpu"},
                        nullptr, &err) == 0, err.constData());
        QFile r(path);
        QVERIFY(r.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(r.readAll()).object();
        const QJsonArray perNode = QJsonDocument::fromJson(run).object()["per_node"].toArray();
        QVERIFY(!perNode.isEmpty());
        double sum = 0;
        for (const QJsonValue n : perNode)
            sum += n["measured_ns"].toDouble();
        QCOMPARE(report["devices"][0]["device"].toString(), QString("Cpu"));
        QCOMPARE(report["devices"][0]["measured_total_ns"].toDouble(), sum);
        int withMeasured = 0;
        for (const QJsonValue n : report["nodes"].toArray())
            withMeasured += n["measured_ns"].isDouble();
        QCOMPARE(withMeasured, perNode.size());
    }

    void importTraceReportsMatches()
    {
        const QString trace = m_dir.filePath("trace.json");
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"traceEvents":[{"ph":"X","name":"probs","ts":0,"dur":7},{"ph":"X","name":"nope","ts":9,"dur":1}]})");
        f.close();
        QByteArray out, err;
        QCOMPARE(runCli({"import-trace", m_file, trace, "--json"}, &out, &err), 0);
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["matched_nodes"].toInt(), 1);
        QCOMPARE(j["measured"][0]["measured_ns"].toDouble(), 7000.0);
        QCOMPARE(j["unmatched_events"][0].toString(), QString("nope"));
    }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "test_cli_report.moc"
