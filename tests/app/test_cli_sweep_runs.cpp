// SPDX-License-Identifier: MIT
// costscope-cli sweep-runs against a Jobs API on 127.0.0.1: tests/remote/fake_ray_jobs.py always (its injected
// failures exercise the retries), and a real Ray head (`ray start --head`) where scripts/setup_ray.sh installed one.
// Every cell of the grid comes back once, retried ones included.
#include "ray_head.h"
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace costscope::test;

class TestCliSweepRuns : public QObject {
    Q_OBJECT
private slots:
    void everyCellOnceWithRetries();
    void cellsFailingEveryAttemptAreReported();
    void unreachableRayExits3();
    void realRayHead();

private:
    // Starts the fake Jobs API; its URL, or empty (and a failure) when it did not start.
    QString startFake(QProcess& server, const QStringList& args);
    QString manifest(const QJsonArray& batches, int retries);
    QJsonObject sweep(const QString& url, const QString& manifestPath, int expectedExit);

    QTemporaryDir m_tmp;
};

QString TestCliSweepRuns::startFake(QProcess& server, const QStringList& args)
{
    server.start("python3", QStringList{sourcePath("tests/remote/fake_ray_jobs.py")} + args);
    if (!server.waitForStarted() || !server.waitForReadyRead(10000))
        return {};
    return "http://127.0.0.1:" + QString::fromUtf8(server.readLine()).trimmed();
}

QString TestCliSweepRuns::manifest(const QJsonArray& batches, int retries)
{
    const QJsonObject m{{"graphs", QJsonArray{sourcePath("resources/examples/cnn.hir.json")}},
                        {"batches", batches},
                        {"devices", QJsonArray{"cpu"}},
                        {"cli", cliPath()},
                        {"run_args", QJsonArray{"--runs", "1", "--warmup", "0", "--no-host-probe"}},
                        {"retries", retries},
                        {"poll_ms", 50}};
    const QString path = m_tmp.filePath(QString("manifest-%1.json").arg(batches.size()));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QJsonDocument(m).toJson());
    return path;
}

QJsonObject TestCliSweepRuns::sweep(const QString& url, const QString& manifestPath, int expectedExit)
{
    QByteArray out, err;
    const QString csv = m_tmp.filePath("results.csv");
    const int code = runCli({"sweep-runs", "--ray", url, manifestPath, "--csv", csv}, &out, &err, 120000);
    if (code != expectedExit)
        qWarning("sweep-runs exited %d: %s", code, err.constData());
    return code == expectedExit ? QJsonDocument::fromJson(out).object() : QJsonObject{};
}

void TestCliSweepRuns::everyCellOnceWithRetries()
{
    QProcess server;
    const QString url = startFake(server, {"--fail-first", "2"});
    if (url.isEmpty())
        QSKIP("python3 could not start the fake Jobs API (tests/remote/fake_ray_jobs.py)");
    const QJsonObject j = sweep(url, manifest({1, 2, 3, 4}, 2), 0);
    server.kill();
    server.waitForFinished();
    const QJsonArray results = j["results"].toArray();
    QCOMPARE(results.size(), 4);
    QCOMPARE(j["succeeded"].toInt(), 4);
    QSet<int> batches;
    QSet<QString> jobs;
    int attempts = 0;
    for (const QJsonValue& v : results) {
        const QJsonObject r = v.toObject();
        QCOMPARE(r["status"].toString(), QString("succeeded"));
        QCOMPARE(r["run"].toObject()["graph"].toString(), QString("cnn"));
        QCOMPARE(r["run"].toObject()["batch"].toInt(), r["batch"].toInt());
        batches.insert(r["batch"].toInt());
        attempts += r["attempts"].toInt();
        for (const QJsonValue& id : r["jobs"].toArray())
            jobs.insert(id.toString());
    }
    QCOMPARE(batches.size(), 4); // none duplicated, none missing
    QCOMPARE(attempts, 6);       // the two injected failures were submitted again
    QCOMPARE(jobs.size(), 6);    // each attempt its own submission id
    QFile csv(m_tmp.filePath("results.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 5);
}

void TestCliSweepRuns::cellsFailingEveryAttemptAreReported()
{
    QProcess server;
    const QString url = startFake(server, {"--fail-first", "1000"});
    if (url.isEmpty())
        QSKIP("python3 could not start the fake Jobs API (tests/remote/fake_ray_jobs.py)");
    const QJsonObject j = sweep(url, manifest({1, 2}, 1), 3);
    server.kill();
    server.waitForFinished();
    QCOMPARE(j["succeeded"].toInt(), 0);
    for (const QJsonValue& v : j["results"].toArray()) {
        QCOMPARE(v.toObject()["attempts"].toInt(), 2);
        QVERIFY(v.toObject()["error"].toString().contains("injected failure"));
    }
}

void TestCliSweepRuns::unreachableRayExits3()
{
    QByteArray err;
    QCOMPARE(runCli({"sweep-runs", "--ray", "http://127.0.0.1:1", manifest({1}, 0)}, nullptr, &err, 60000), 3);
    QVERIFY2(err.contains("127.0.0.1:1"), err.constData());
}

void TestCliSweepRuns::realRayHead()
{
    const RayHead head(m_tmp.filePath("ray"));
    if (head.url().isEmpty())
        QSKIP(qPrintable(head.skipReason()));
    const QJsonObject j = sweep(head.url(), manifest({1, 2}, 1), 0);
    QCOMPARE(j["succeeded"].toInt(), 2);
    QSet<int> batches;
    for (const QJsonValue& v : j["results"].toArray())
        batches.insert(v.toObject()["batch"].toInt());
    QCOMPARE(batches.size(), 2);
}

QTEST_GUILESS_MAIN(TestCliSweepRuns)
#include "test_cli_sweep_runs.moc"
