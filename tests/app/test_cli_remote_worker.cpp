// SPDX-License-Identifier: MIT
// The host's long-lived `costscope-cli worker` behind --remote (engine/remote/remote_worker.h), against a real
// OpenSSH server on 127.0.0.1 (tests/remote/loopback_sshd.sh): runs through it give what the one-shot path gives and
// start the remote login shell once; a killed worker is a clear error and the next run starts another; Cancel ends
// the request and leaves the worker usable; a second request meanwhile runs the one-shot way; a CLI without the
// worker mode keeps the one-shot path; the worker ends when its stdin closes. Skips where no sshd can be started.
#include "loopback_ssh.h"
#include "test_paths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace costscope::test;

class TestCliRemoteWorker : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void workerEndsWhenItsStdinCloses();
    void runsThroughTheWorkerMatchTheOneShotPathAndStartTheShellOnce();
    void killedWorkerIsAClearErrorAndTheNextRunStartsAnother();
    void cancelEndsTheRequestAndKeepsTheWorker();
    void secondRequestMeanwhileRunsTheOneShotWay();
    void cliWithoutWorkerModeKeepsTheOneShotPath();

private:
    QStringList remoteArgs(const QString& cli = {}) const;
    QStringList run(int runs = 1) const;
    QList<int> workerPids() const;
    void killWorkers() const;
    // The ssh commands since the last call: "ssh" starts the remote login shell, "ssh-W" is a channel to the worker.
    QStringList sshCalls() const;

    QTemporaryDir m_tmp;
    QString m_skip;
    QString m_port;
};

void TestCliRemoteWorker::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    qputenv("HOME", m_tmp.filePath("home").toUtf8());
    qunsetenv("XDG_CACHE_HOME"); // what is known of a host's worker is kept below HOME
    QDir().mkpath(m_tmp.filePath("home"));
    const QString sshd = m_tmp.filePath("sshd");
    QProcess start;
    start.start("bash", {sourcePath("tests/remote/loopback_sshd.sh"), "start", sshd});
    if (!start.waitForFinished(30000) || start.exitCode() != 0) {
        m_skip = "no OpenSSH server could be started on 127.0.0.1: "
                 + QString::fromUtf8(start.readAllStandardError()).trimmed();
        return;
    }
    QFile port(sshd + "/port");
    QVERIFY(port.open(QIODevice::ReadOnly));
    m_port = QString::fromUtf8(port.readAll()).trimmed();
    // A logging ssh first on PATH tells the commands that start the login shell from the channels to the worker.
    const QString bin = m_tmp.filePath("counting-bin");
    QVERIFY(QDir().mkpath(bin));
    const QString real = QStandardPaths::findExecutable("ssh");
    QFile f(bin + "/ssh");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("#!/bin/sh\ncase \" $* \" in *\" -W \"*) echo ssh-W ;; *\" -O \"*) ;; *) echo ssh ;; esac >> '"
            + m_tmp.filePath("ssh-calls.log").toUtf8() + "'\nexec '" + real.toUtf8() + "' \"$@\"\n");
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    qputenv("PATH", bin.toUtf8() + ':' + qgetenv("PATH"));
}

void TestCliRemoteWorker::cleanupTestCase()
{
    if (m_port.isEmpty())
        return;
    killWorkers();
    QProcess::execute("bash", {sourcePath("tests/remote/loopback_sshd.sh"), "stop", m_tmp.filePath("sshd")});
}

QStringList TestCliRemoteWorker::remoteArgs(const QString& cli) const
{
    const QString sshd = m_tmp.filePath("sshd");
    return {"--remote",          loopbackUser() + "@127.0.0.1:" + m_port,
            "--identity",        sshd + "/client_key",
            "--ssh-option",      "StrictHostKeyChecking=no",
            "--ssh-option",      "UserKnownHostsFile=" + sshd + "/known_hosts",
            "--ssh-option",      "SetEnv=XDG_DATA_HOME=" + m_tmp.filePath("remote-data"),
            "--remote-cli",      cli.isEmpty() ? cliPath() : cli,
            "--remote-cache",    m_tmp.filePath("remote-cache"),
            "--connect-timeout", "5"};
}

QStringList TestCliRemoteWorker::run(int runs) const
{
    return {"run",
            sourcePath("resources/examples/cnn.hir.json"),
            "--runs",
            QString::number(runs),
            "--warmup",
            "0",
            "--no-host-probe"};
}

QStringList TestCliRemoteWorker::sshCalls() const
{
    return takeLines(m_tmp.filePath("ssh-calls.log"));
}

QList<int> TestCliRemoteWorker::workerPids() const
{
    return remoteWorkerPids(m_tmp.filePath("remote-data"));
}

void TestCliRemoteWorker::killWorkers() const
{
    killRemoteWorkers(m_tmp.filePath("remote-data"));
}

namespace {
// The worker's last answer to a request: the lines before it say it was taken, and what the command wrote to stderr.
QJsonObject finalAnswer(QProcess& worker)
{
    for (;;) {
        while (!worker.canReadLine())
            if (!worker.waitForReadyRead(10000))
                return {};
        const QJsonObject line = QJsonDocument::fromJson(worker.readLine()).object();
        if (line.contains("exit") || line.contains("error"))
            return line;
    }
}
} // namespace

void TestCliRemoteWorker::workerEndsWhenItsStdinCloses()
{
    QProcess worker;
    worker.start(cliPath(), {"worker"});
    QVERIFY(worker.waitForStarted());
    worker.write(R"({"args": ["--version"]})"
                 "\n");
    const QJsonObject answer = finalAnswer(worker);
    QCOMPARE(answer["exit"].toInt(), 0);
    QCOMPARE(answer["out"].toString(), QString("costscope-cli " COSTSCOPE_PROJECT_VERSION "\n"));
    worker.write(R"({"args": ["info", "x"], "required": ["/nonexistent/graph.hir.json"]})"
                 "\n");
    const QJsonObject missing = finalAnswer(worker);
    QCOMPARE(missing["exit"].toInt(), 87);
    QCOMPARE(missing["missing"].toArray().first().toString(), QString("/nonexistent/graph.hir.json"));
    worker.closeWriteChannel();
    QVERIFY2(worker.waitForFinished(5000), "the worker outlived its stdin");
    QCOMPARE(worker.exitCode(), 0);
}

void TestCliRemoteWorker::runsThroughTheWorkerMatchTheOneShotPathAndStartTheShellOnce()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray oneShot, first, second, third, err;
    // The one-shot path, which also puts the graph in the host's cache.
    QVERIFY2(runCli(run() + QStringList{"--json", "--remote-worker", "off"} + remoteArgs(), &oneShot, &err, 60000) == 0,
             err.constData());
    sshCalls();
    QVERIFY(workerPids().isEmpty());
    QVERIFY2(runCli(run() + QStringList{"--json"} + remoteArgs(), &first, &err, 60000) == 0, err.constData());
    QVERIFY2(runCli(run() + QStringList{"--json"} + remoteArgs(), &second, &err, 60000) == 0, err.constData());
    QVERIFY2(runCli(run() + QStringList{"--json"} + remoteArgs(), &third, &err, 60000) == 0, err.constData());
    // The first run starts the login shell, which starts the worker; the others are channels to it.
    QCOMPARE(sshCalls(), QStringList({"ssh", "ssh-W", "ssh-W"}));
    QCOMPARE(workerPids().size(), 1);
    const QJsonObject o = QJsonDocument::fromJson(oneShot).object();
    for (const QByteArray& text : {first, second, third}) {
        const QJsonObject w = QJsonDocument::fromJson(text).object();
        QCOMPARE(w.keys(), o.keys());
        for (const char* key : {"graph", "file", "backend", "device", "bindings", "outputs"})
            QCOMPARE(w[key], o[key]);
        QCOMPARE(w["predicted"].toObject()["costscope"].toObject()["total_ns"],
                 o["predicted"].toObject()["costscope"].toObject()["total_ns"]);
    }
    // Progress lines and the text form come through the worker as they do one-shot.
    QByteArray text;
    QCOMPARE(runCli(run() + remoteArgs(), &text, &err, 60000), 0);
    QVERIFY2(text.startsWith("graph:   cnn\ndevice:  cpu:0 ("), text.constData());
    QVERIFY2(err.contains("127.0.0.1: running"), err.constData());
    QCOMPARE(sshCalls(), QStringList({"ssh-W"}));
}

void TestCliRemoteWorker::killedWorkerIsAClearErrorAndTheNextRunStartsAnother()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray err;
    QVERIFY2(runCli(run() + remoteArgs(), nullptr, &err, 60000) == 0, err.constData()); // a worker is there
    const QList<int> before = workerPids();
    QCOMPARE(before.size(), 1);
    QProcess long_;
    long_.start(cliPath(), run(10000000) + remoteArgs());
    QVERIFY(long_.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(workerPids().size(), 2, 10000); // the worker and its request
    QElapsedTimer clock;
    clock.start();
    killWorkers();
    QVERIFY2(long_.waitForFinished(30000), "a killed worker hung the run");
    const QByteArray said = long_.readAllStandardError();
    QCOMPARE(long_.exitCode(), 3);
    QVERIFY2(said.contains("127.0.0.1") && said.contains("worker was lost during the run"), said.constData());
    qInfo("killed worker noticed after %lld ms", static_cast<long long>(clock.elapsed()));
    sshCalls();
    QVERIFY2(runCli(run() + remoteArgs(), nullptr, &err, 60000) == 0, err.constData());
    QCOMPARE(sshCalls(), QStringList({"ssh-W", "ssh"})); // no worker there: the one-shot way starts another
    const QList<int> after = workerPids();
    QCOMPARE(after.size(), 1);
    QVERIFY(after != before);
    QVERIFY2(runCli(run() + remoteArgs(), nullptr, &err, 60000) == 0, err.constData());
    QCOMPARE(sshCalls(), QStringList({"ssh-W"}));
}

void TestCliRemoteWorker::cancelEndsTheRequestAndKeepsTheWorker()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray err;
    QVERIFY2(runCli(run() + remoteArgs(), nullptr, &err, 60000) == 0, err.constData());
    const QList<int> worker = workerPids();
    QCOMPARE(worker.size(), 1);
    QProcess long_;
    long_.start(cliPath(), run(10000000) + remoteArgs());
    QVERIFY(long_.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(workerPids().size(), 2, 10000);
    long_.terminate(); // SIGTERM: what Ctrl-C does, the CLI's Cancel
    QVERIFY2(long_.waitForFinished(15000), "Cancel hung the run");
    QCOMPARE(long_.exitCode(), 3);
    const QByteArray said = long_.readAllStandardError();
    QVERIFY2(said.contains("127.0.0.1") && said.contains("cancelled"), said.constData());
    QTRY_COMPARE_WITH_TIMEOUT(workerPids(), worker, 10000); // the request killed, the worker kept
    sshCalls();
    QVERIFY2(runCli(run() + remoteArgs(), nullptr, &err, 60000) == 0, err.constData());
    // Served by the worker (asked again after 300 ms where it was still ending the cancelled request).
    const QStringList calls = sshCalls();
    QVERIFY2(!calls.isEmpty() && !calls.contains("ssh"), qPrintable(calls.join(' ')));
}

void TestCliRemoteWorker::secondRequestMeanwhileRunsTheOneShotWay()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray out, err;
    QVERIFY2(runCli(run() + remoteArgs(), nullptr, &err, 60000) == 0, err.constData());
    QProcess long_;
    long_.start(cliPath(), run(10000000) + remoteArgs());
    QVERIFY(long_.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(workerPids().size(), 2, 10000);
    sshCalls();
    QVERIFY2(runCli(run() + QStringList{"--json"} + remoteArgs(), &out, &err, 60000) == 0, err.constData());
    QVERIFY2(err.contains("the worker is busy with another request"), err.constData());
    QCOMPARE(QJsonDocument::fromJson(out).object()["backend"].toString(), QString("cpu"));
    QCOMPARE(sshCalls(), QStringList({"ssh-W", "ssh-W", "ssh"})); // asked twice, 300 ms apart, then one-shot
    long_.terminate();
    QVERIFY(long_.waitForFinished(15000));
    QTRY_COMPARE_WITH_TIMEOUT(workerPids().size(), 1, 10000);
}

// An older costscope-cli on the host (no worker mode): runs stay one-shot, the start is not tried again, and the
// version is still checked (a wrapper that passes it through).
void TestCliRemoteWorker::cliWithoutWorkerModeKeepsTheOneShotPath()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString cli = m_tmp.filePath("no-worker-costscope-cli"), log = m_tmp.filePath("no-worker-calls.log");
    QFile f(cli);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("#!/bin/sh\necho \"$1\" >> '" + log.toUtf8()
            + "'\nif [ \"$1\" = worker ]; then echo \"costscope-cli: unknown "
              "command 'worker'\" >&2; exit 2; fi\nexec '"
            + cliPath().toUtf8() + "' \"$@\"\n");
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    QByteArray out, err;
    sshCalls();
    for (int i = 0; i < 2; ++i)
        QVERIFY2(runCli(run() + QStringList{"--json"} + remoteArgs(cli), &out, &err, 60000) == 0, err.constData());
    QCOMPARE(QJsonDocument::fromJson(out).object()["backend"].toString(), QString("cpu"));
    QCOMPARE(sshCalls(), QStringList({"ssh", "ssh"}));
    QCOMPARE(takeLines(log), QStringList({"--version", "worker", "run", "run"}));
}

QTEST_GUILESS_MAIN(TestCliRemoteWorker)
#include "test_cli_remote_worker.moc"
