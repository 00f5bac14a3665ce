// SPDX-License-Identifier: MIT
// costscope-cli run/devices/calibrate --remote against a real OpenSSH server on 127.0.0.1 (tests/remote/
// loopback_sshd.sh), with this build's costscope-cli as the remote one: the same JSON as a local run, the graph
// cache reused, and every failure (killed connection, timeout, unreachable, refused key, missing or older CLI)
// ending in exit 3 within its timeout. Skips, saying why, where no sshd can be started.
#include "loopback_ssh.h"
#include "test_paths.h"
#if COSTSCOPE_HAVE_ONNX
#include "onnx_writer.h"
#endif

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

#include <unistd.h>

#include <csignal>

using namespace costscope::test;

class TestCliRemote : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void runMatchesTheLocalRun();
    void secondRunReusesTheCache();
    void warmRunIsOneSshRoundTrip();
    void devicesAreNamedForTheHost();
    void calibrationIsKeptLocallyUnderTheHostName();
    void inputAndReferenceFilesTravel();
    void externalDataTravelsWithTheModel();
    void remoteRunsAndProfileServeFitSweepAndEvaluate();
    void deviceIdsNameTheHost();
    void killedConnectionExits3();
    void timeoutExits3();
    void fullRemoteDiskExits3();
    void unreachableAndRefusedExit3();
    void missingOlderOrCrashingCliExits3();
    void versionIsCheckedOncePerCliFile();

private:
    QStringList remoteArgs(const QString& cli = {}) const;
    QString graph() const { return sourcePath("resources/examples/cnn.hir.json"); }
    QString sshDir() const { return m_tmp.filePath("sshd"); }
    void killConnections() const;

    QTemporaryDir m_tmp;
    QString m_skip;
    QString m_port;
};

void TestCliRemote::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    // The ssh control sockets and the local profiles of this test live in its own HOME; the remote side keeps its
    // profiles in XDG_DATA_HOME, passed through ssh (AcceptEnv in the test server's config).
    qputenv("HOME", m_tmp.filePath("home").toUtf8());
    QDir().mkpath(m_tmp.filePath("home"));
    QProcess start;
    start.start("bash", {sourcePath("tests/remote/loopback_sshd.sh"), "start", sshDir()});
    if (!start.waitForFinished(30000) || start.exitCode() != 0) {
        m_skip = "no OpenSSH server could be started on 127.0.0.1: "
                 + QString::fromUtf8(start.readAllStandardError()).trimmed();
        return;
    }
    QFile port(sshDir() + "/port");
    QVERIFY(port.open(QIODevice::ReadOnly));
    m_port = QString::fromUtf8(port.readAll()).trimmed();
}

void TestCliRemote::cleanupTestCase()
{
    if (m_port.isEmpty())
        return;
    killConnections();
    killRemoteWorkers(m_tmp.filePath("remote-data")); // the hosts' workers these runs started
    QProcess::execute("bash", {sourcePath("tests/remote/loopback_sshd.sh"), "stop", sshDir()});
}

QStringList TestCliRemote::remoteArgs(const QString& cli) const
{
    return {"--remote",          loopbackUser() + "@127.0.0.1:" + m_port,
            "--identity",        sshDir() + "/client_key",
            "--ssh-option",      "StrictHostKeyChecking=no",
            "--ssh-option",      "UserKnownHostsFile=" + sshDir() + "/known_hosts",
            "--ssh-option",      "SetEnv=XDG_DATA_HOME=" + m_tmp.filePath("remote-data"),
            "--remote-cli",      cli.isEmpty() ? cliPath() : cli,
            "--remote-cache",    m_tmp.filePath("remote-cache"),
            "--connect-timeout", "5"};
}

// Kills every connection of the test server (its per-connection children), as a dropped network would.
void TestCliRemote::killConnections() const
{
    QFile pidFile(sshDir() + "/sshd.pid");
    if (!pidFile.open(QIODevice::ReadOnly))
        return;
    const QString server = QString::fromUtf8(pidFile.readAll()).trimmed();
    for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
        QFile stat("/proc/" + pid + "/stat");
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromUtf8(stat.readAll());
        const QStringList fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1] == server)
            ::kill(pid.toInt(), SIGKILL);
    }
}

void TestCliRemote::runMatchesTheLocalRun()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QStringList run = {"run", graph(), "--runs", "3", "--warmup", "1", "--per-node", "--no-host-probe", "--json"};
    QByteArray local, remote, err;
    QCOMPARE(runCli(run, &local), 0);
    QVERIFY2(runCli(run + remoteArgs(), &remote, &err, 60000) == 0, err.constData());
    const QJsonObject l = QJsonDocument::fromJson(local).object(), r = QJsonDocument::fromJson(remote).object();
    QCOMPARE(r.keys(), l.keys());
    for (const char* key : {"graph", "file", "backend", "device", "bindings", "outputs"})
        QCOMPARE(r[key], l[key]);
    QCOMPARE(r["per_node"].toArray().size(), l["per_node"].toArray().size());
    QCOMPARE(r["predicted"].toObject()["costscope"].toObject()["total_ns"],
             l["predicted"].toObject()["costscope"].toObject()["total_ns"]);
    // The text form too: the same lines, timings aside.
    QByteArray text;
    QCOMPARE(runCli(QStringList{"run", graph(), "--runs", "1"} + remoteArgs(), &text, nullptr, 60000), 0);
    QVERIFY(text.startsWith("graph:   cnn\ndevice:  cpu:0 ("));
    QVERIFY(text.contains("predicted costscope ("));
}

void TestCliRemote::secondRunReusesTheCache()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray err;
    QCOMPARE(runCli(QStringList{"run", graph(), "--runs", "1", "--no-host-probe"} + remoteArgs(), nullptr, &err, 60000),
             0);
    QVERIFY2(!err.contains("copying"), err.constData()); // runMatchesTheLocalRun copied it
    const QStringList entries = QDir(m_tmp.filePath("remote-cache")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries[0].size(), 64); // the SHA-256 of the graph, in hex
    QVERIFY(QFile::exists(m_tmp.filePath("remote-cache/" + entries[0] + "/cnn.hir.json")));
}

// A warm run (the graph in the cache, the CLI file's version known here) is one ssh command, a channel to the host's
// worker (test_cli_remote_worker tells it from one that starts the login shell, which costs hundreds of ms on a host
// whose ~/.bashrc runs `pyenv init`). A cold one asks, copies and asks again.
void TestCliRemote::warmRunIsOneSshRoundTrip()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString bin = m_tmp.filePath("counting-bin"), log = m_tmp.filePath("ssh-calls.log");
    QVERIFY(QDir().mkpath(bin));
    for (const char* tool : {"ssh", "scp"}) {
        const QString real = QStandardPaths::findExecutable(tool);
        QVERIFY2(!real.isEmpty(), tool);
        QFile f(bin + '/' + tool);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho " + QByteArray(tool) + " >> '" + log.toUtf8() + "'\nexec '" + real.toUtf8()
                + "' \"$@\"\n");
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    }
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", bin.toUtf8() + ':' + path);
    const auto calls = [&] { return takeLines(log); };
    QByteArray err;
    const int warm =
        runCli(QStringList{"run", graph(), "--runs", "1", "--no-host-probe"} + remoteArgs(), nullptr, &err, 60000);
    const QStringList warmCalls = calls();
    // A graph the host has not seen: the run finds it missing, it is copied, and the run is asked again.
    QTemporaryDir fresh;
    const QString other = fresh.filePath("other.hir.json");
    QFile source(graph()), copy(other);
    QVERIFY(source.open(QIODevice::ReadOnly) && copy.open(QIODevice::WriteOnly));
    copy.write(source.readAll() + "\n"); // other bytes, another cache entry
    copy.close();
    const int cold =
        runCli(QStringList{"run", other, "--runs", "1", "--no-host-probe"} + remoteArgs(), nullptr, &err, 60000);
    const QStringList coldCalls = calls();
    qputenv("PATH", path);
    QCOMPARE(warm, 0);
    QCOMPARE(warmCalls, QStringList({"ssh"}));
    QVERIFY2(cold == 0, err.constData());
    QVERIFY2(coldCalls.count("scp") == 1 && coldCalls.count("ssh") >= 2, qPrintable(coldCalls.join(' ')));
}

void TestCliRemote::devicesAreNamedForTheHost()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray out, err;
    QVERIFY2(runCli(QStringList{"devices"} + remoteArgs(), &out, &err, 60000) == 0, err.constData());
    QVERIFY2(out.startsWith("127.0.0.1/cpu  "), out.constData());
    QVERIFY2(runCli(QStringList{"devices", "--json"} + remoteArgs(), &out, &err, 60000) == 0, err.constData());
    const QJsonObject j = QJsonDocument::fromJson(out).object();
    QCOMPARE(j["devices"].toArray()[0].toObject()["id"].toString(), QString("127.0.0.1/cpu"));
}

void TestCliRemote::calibrationIsKeptLocallyUnderTheHostName()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray out, err;
    QVERIFY2(
        // Without kernel predictors: their sampling runs to a time budget that a loaded CI machine stretches, and
        // where the profile is kept is the same either way (the flag travels to the remote calibrate).
        runCli(QStringList{"calibrate", "--backend", "cpu", "--quick", "--no-predictors", "--json"} + remoteArgs(),
               &out, &err, 120000)
            == 0,
        err.constData());
    const QJsonObject j = QJsonDocument::fromJson(out).object();
    QCOMPARE(j["name"].toString(), QString("127.0.0.1/calibrated-cpu"));
    const QJsonValue predictors = j["kernel_predictors"]; // --no-predictors reached the remote calibrate
    QVERIFY2(predictors.isUndefined() || predictors.isNull() || predictors.toObject().isEmpty(), out.constData());
    QVERIFY2(j["saved_to"].toString().startsWith(m_tmp.filePath("home")), qPrintable(j["saved_to"].toString()));
    QVERIFY(QFile::exists(j["saved_to"].toString()));
}

// --input and --reference name local files: they are copied into the remote cache by their content like the graph,
// once, and the run is checked against the reference there. The input is what makes the check pass: the synthetic
// inputs of a run without one are all >= 0, so Relu would give them back unchanged.
void TestCliRemote::inputAndReferenceFilesTravel()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
#if !COSTSCOPE_HAVE_ONNX
    QSKIP("built without ONNX import: no ONNX model to feed");
#else
    const QString dir = m_tmp.filePath("relu");
    QDir().mkpath(dir);
    OnnxModel relu(13);
    relu.input("x", {2, 3});
    relu.output("y", {2, 3});
    relu.node("Relu", {"x"}, {"y"});
    relu.save(dir + "/relu.onnx");
    writeTensorFile(dir + "/input.pb", {-1, 2, -3, 4, -5, 6}, {2, 3});
    writeTensorFile(dir + "/expected.pb", {0, 2, 0, 4, 0, 6}, {2, 3});
    writeTensorFile(dir + "/wrong.pb", {1, 2, 3, 4, 5, 6}, {2, 3});
    const QStringList run = {"run", dir + "/relu.onnx", "--runs", "1", "--warmup", "0", "--no-host-probe", "--json"};
    QByteArray out, err;
    const QStringList checked = run + QStringList{"--input", dir + "/input.pb", "--reference", dir + "/expected.pb"};
    QVERIFY2(runCli(checked + remoteArgs(), &out, &err, 60000) == 0, err.constData());
    QVERIFY2(err.contains("copying input.pb") && err.contains("copying expected.pb"), err.constData());
    const QJsonObject check = QJsonDocument::fromJson(out).object()["check"].toObject();
    QVERIFY2(check["pass"].toBool(), out.constData());
    QCOMPARE(check["reference"].toString(), dir + "/expected.pb"); // the local file, not its remote copy
    QVERIFY2(runCli(checked + remoteArgs(), &out, &err, 60000) == 0, err.constData());
    QVERIFY2(!err.contains("copying"), err.constData()); // all three are in the cache now
    // The wrong reference fails the check there (exit 4, as locally); without the input the synthetic one fails it.
    QCOMPARE(runCli(run + QStringList{"--input", dir + "/input.pb", "--reference", dir + "/wrong.pb"} + remoteArgs(),
                    &out, &err, 60000),
             4);
    QCOMPARE(runCli(run + QStringList{"--reference", dir + "/expected.pb"} + remoteArgs(), &out, &err, 60000), 4);
    // --reference cpu stays a reference computed there.
    QVERIFY2(
        runCli(run + QStringList{"--input", dir + "/input.pb", "--reference", "cpu"} + remoteArgs(), &out, &err, 60000)
            == 0,
        err.constData());
    QCOMPARE(QJsonDocument::fromJson(out).object()["check"].toObject()["reference"].toString(), QString("cpu"));
    // A file that is not there is named before anything is run.
    QCOMPARE(runCli(run + QStringList{"--input", dir + "/absent.pb"} + remoteArgs(), &out, &err, 60000), 3);
    QVERIFY2(err.contains("--input") && err.contains("absent.pb"), err.constData());
    QCOMPARE(runCli(run + QStringList{"--save-output", dir + "/out.pb"} + remoteArgs(), &out, &err, 60000), 2);
    QVERIFY2(err.contains("not with --remote"), err.constData());
#endif
}

// An ONNX model's external data goes into the remote cache beside it, under a key that covers it: the run there
// reads these weights (the check passes), and new weights are a new cache entry that the run sees.
void TestCliRemote::externalDataTravelsWithTheModel()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
#if !COSTSCOPE_HAVE_ONNX
    QSKIP("built without ONNX import: no ONNX model to feed");
#else
    const QString dir = m_tmp.filePath("external");
    QDir().mkpath(dir);
    OnnxModel add(13);
    add.input("x", {4});
    add.output("y", {4});
    onnx::TensorProto* w = add.graph().add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(4);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    onnx::StringStringEntryProto* location = w->add_external_data();
    location->set_key("location");
    location->set_value("w.bin");
    add.node("Add", {"x", "w"}, {"y"});
    add.save(dir + "/add.onnx");
    writeBytes(dir + "/w.bin", bytesOf({10, 20, 30, 40}));
    writeTensorFile(dir + "/x.pb", {1, 2, 3, 4}, {4});
    writeTensorFile(dir + "/y.pb", {11, 22, 33, 44}, {4});
    const QStringList run = {"run",         dir + "/add.onnx", "--runs", "1",       "--warmup",
                             "0",           "--no-host-probe", "--json", "--input", dir + "/x.pb",
                             "--reference", dir + "/y.pb"};
    QByteArray out, err;
    QVERIFY2(runCli(run + remoteArgs(), &out, &err, 60000) == 0, err.constData());
    QVERIFY2(err.contains("copying add.onnx"), err.constData());
    QVERIFY2(QJsonDocument::fromJson(out).object()["check"].toObject()["pass"].toBool(), out.constData());
    writeBytes(dir + "/w.bin", bytesOf({0, 0, 0, 0}));
    QCOMPARE(runCli(run + remoteArgs(), &out, &err, 60000), 4); // x + 0 is not y
    QVERIFY2(err.contains("copying add.onnx"), err.constData());
#endif
}

// A remote device is used like a local one: its runs feed fit, its calibrated profile (kept here under the host's
// name by calibrationIsKeptLocallyUnderTheHostName) feeds sweeps and fits, and evaluate runs on it.
void TestCliRemote::remoteRunsAndProfileServeFitSweepAndEvaluate()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString profile = "127.0.0.1/calibrated-cpu";
    QByteArray out, err;
    QVERIFY2(runCli(QStringList{"run", graph(), "--runs", "3", "--warmup", "1", "--per-node", "--no-host-probe",
                                "--profile", profile, "--json"}
                        + remoteArgs(),
                    &out, &err, 60000)
                 == 0,
             err.constData());
    QCOMPARE(
        QJsonDocument::fromJson(out).object()["predicted"].toObject()["costscope"].toObject()["profile"].toString(),
        profile);
    const QString runFile = m_tmp.filePath("remote-run.json");
    QFile f(runFile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(out);
    f.close();
    QVERIFY2(runCli({"fit", "--profile", profile, runFile, "--json"}, &out, &err) == 0, err.constData());
    const QJsonObject fit = QJsonDocument::fromJson(out).object();
    QCOMPARE(fit["profile"].toString(), profile);
    QVERIFY(fit["nodes"].toObject()["before"].toObject()["count"].toInt() > 0);

    QVERIFY2(runCli({"sweep", graph(), "--values", "1,2", "--model", "costscope", "--profile", profile, "--json"}, &out,
                    &err)
                 == 0,
             err.constData());
    QCOMPARE(QJsonDocument::fromJson(out).object()["devices"].toArray()[0].toObject()["profile"].toString(), profile);

    QVERIFY2(runCli(QStringList{"evaluate", "--profile", profile, "--no-sampler", "--batches", "1", "--max-gflop",
                                "0.5", "--budget", "0.05", "--json"}
                        + remoteArgs(),
                    &out, &err, 300000)
                 == 0,
             err.constData());
    const QJsonObject evaluation = QJsonDocument::fromJson(out).object();
    QCOMPARE(evaluation["host"].toString(), QString("127.0.0.1"));
    QCOMPARE(evaluation["profile"].toString(), profile);
    QCOMPARE(runCli(QStringList{"evaluate", runFile} + remoteArgs(), &out, &err), 2);
    QVERIFY2(err.contains("not with --remote"), err.constData());
}

// The ids the remote listing prints work as --device: a run on HOST/cpu with --remote to that host, the host's kept
// calibration in analyze; another host's id is exit 3 naming the remote configured, before any connection.
void TestCliRemote::deviceIdsNameTheHost()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray out, err;
    for (const char* id : {"127.0.0.1/cpu", "127.0.0.1/cpu:0"}) {
        QVERIFY2(runCli(QStringList{"run", graph(), "--runs", "1", "--warmup", "0", "--no-host-probe", "--device", id,
                                    "--json"}
                            + remoteArgs(),
                        &out, &err, 60000)
                     == 0,
                 err.constData());
        QCOMPARE(QJsonDocument::fromJson(out).object()["backend"].toString(), QString("cpu"));
    }
    QCOMPARE(runCli(QStringList{"run", graph(), "--device", "gpu7/cuda:0"} + remoteArgs(), &out, &err), 3);
    QVERIFY2(err.contains("'gpu7' is not a configured remote (remotes configured: 127.0.0.1)"), err.constData());
    QCOMPARE(runCli(QStringList{"calibrate", "--device", "local/cpu:0"} + remoteArgs(), &out, &err), 3);
    QVERIFY2(err.contains("names a device of this machine, but --remote runs on 127.0.0.1"), err.constData());

    // calibrationIsKeptLocallyUnderTheHostName kept 127.0.0.1/calibrated-cpu here.
    QVERIFY2(runCli({"analyze", graph(), "--device", "127.0.0.1/cpu,cpu:0", "--json"}, &out, &err) == 0,
             err.constData());
    const QJsonArray devices = QJsonDocument::fromJson(out).object()["devices"].toArray();
    QCOMPARE(devices.size(), 2);
    QCOMPARE(devices[0].toObject()["device_id"].toString(), QString("127.0.0.1/cpu"));
    QCOMPARE(devices[0].toObject()["profile"].toString(), QString("127.0.0.1/calibrated-cpu"));
    QCOMPARE(devices[1].toObject()["device_id"].toString(), QString("cpu:0"));
}

void TestCliRemote::killedConnectionExits3()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QProcess run;
    run.start(cliPath(), QStringList{"run", graph(), "--runs", "10000000", "--no-host-probe", "--remote-timeout", "60"}
                             + remoteArgs());
    QVERIFY(run.waitForStarted());
    QTest::qWait(2500); // connected, version checked, running
    QElapsedTimer clock;
    clock.start();
    killConnections();
    QVERIFY2(run.waitForFinished(20000), "a killed connection hung the run");
    const QByteArray err = run.readAllStandardError();
    QCOMPARE(run.exitCode(), 3);
    QVERIFY2(err.contains("connection"), err.constData());
    qInfo("killed connection noticed after %lld ms", static_cast<long long>(clock.elapsed()));
    // The remote run stops with its connection (remote_cli.cpp's watcher) rather than run on for hours.
    const QString cache = m_tmp.filePath("remote-cache");
    bool orphan = true;
    for (int tries = 0; tries < 50 && orphan; ++tries, QTest::qWait(100)) {
        orphan = false;
        for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
            QFile cmdline("/proc/" + pid + "/cmdline");
            if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(cache.toUtf8()))
                orphan = true;
        }
    }
    QVERIFY2(!orphan, "the remote costscope-cli outlived its connection");
}

void TestCliRemote::timeoutExits3()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QElapsedTimer clock;
    clock.start();
    QByteArray err;
    QCOMPARE(runCli(QStringList{"run", graph(), "--runs", "10000000", "--no-host-probe", "--remote-timeout", "2"}
                        + remoteArgs(),
                    nullptr, &err, 30000),
             3);
    QVERIFY2(err.contains("no answer within 2 s"), err.constData());
    QVERIFY(clock.elapsed() < 15000);
}

// The remote cache on a file system with no room left (a 64 KiB tmpfs, filled): the copy fails naming the cause,
// nothing half-copied is left to look cached. Skips where no tmpfs can be mounted (not root).
void TestCliRemote::fullRemoteDiskExits3()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString disk = m_tmp.filePath("full-disk");
    QDir().mkpath(disk);
    QProcess mount;
    mount.start("mount", {"-t", "tmpfs", "-o", "size=64k", "tmpfs", disk});
    if (!mount.waitForFinished(10000) || mount.exitStatus() != QProcess::NormalExit || mount.exitCode() != 0)
        QSKIP("no tmpfs can be mounted here (it needs root): a full disk is not simulated");
    const struct Unmount {
        QString path;
        ~Unmount() { QProcess::execute("umount", {path}); }
    } unmount{disk};
    QProcess::execute("sh", {"-c", "cat /dev/zero > '" + disk + "/filler' 2>/dev/null; true"});
    QStringList args = QStringList{"run", graph(), "--runs", "1", "--no-host-probe"} + remoteArgs();
    args[args.indexOf("--remote-cache") + 1] = disk + "/cache";
    QElapsedTimer clock;
    clock.start();
    QByteArray err;
    QCOMPARE(runCli(args, nullptr, &err, 60000), 3);
    QVERIFY2(err.contains("copying cnn.hir.json failed")
                 && err.contains("no space left on the host's " + disk.toUtf8()),
             err.constData());
    QVERIFY(clock.elapsed() < 30000);
    QCOMPARE(QDir(disk + "/cache").entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{});
}

void TestCliRemote::unreachableAndRefusedExit3()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray err;
    QStringList closedPort = remoteArgs();
    closedPort[1] = loopbackUser() + "@127.0.0.1:1";
    QCOMPARE(runCli(QStringList{"devices"} + closedPort, nullptr, &err, 30000), 3);
    QVERIFY2(err.contains("unreachable"), err.constData());
    QProcess::execute("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-f", m_tmp.filePath("stranger_key")});
    QStringList stranger = remoteArgs();
    stranger[3] = m_tmp.filePath("stranger_key");
    stranger << "--ssh-option"
             << "ControlPath=none"; // not through the master the right key opened
    QCOMPARE(runCli(QStringList{"devices"} + stranger, nullptr, &err, 30000), 3);
    QVERIFY2(err.contains("authentication refused"), err.constData());
}

void TestCliRemote::missingOlderOrCrashingCliExits3()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    QByteArray err;
    QCOMPARE(runCli(QStringList{"run", graph()} + remoteArgs("/nonexistent/costscope-cli"), nullptr, &err, 30000), 3);
    QVERIFY2(err.contains("not found"), err.constData());
    const QString old = m_tmp.filePath("old-costscope-cli");
    QFile script(old);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\necho 'costscope-cli 0.0.1'\n");
    script.close();
    script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
    QCOMPARE(runCli(QStringList{"run", graph()} + remoteArgs(old), nullptr, &err, 30000), 3);
    QVERIFY2(err.contains("0.0.1 is older"), err.constData());
    const QString crashing = m_tmp.filePath("crashing-costscope-cli");
    QFile crash(crashing);
    QVERIFY(crash.open(QIODevice::WriteOnly));
    crash.write("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'costscope-cli " COSTSCOPE_PROJECT_VERSION
                "'; else kill -SEGV $$; fi\n");
    crash.close();
    crash.setPermissions(crash.permissions() | QFileDevice::ExeOwner);
    QCOMPARE(runCli(QStringList{"run", graph()} + remoteArgs(crashing), nullptr, &err, 30000), 3);
    QVERIFY2(err.contains("died of signal 11"), err.constData());
}

// A CLI file whose version passed is not asked again from here (a process start on the host saved per run); another
// file in its place, an older one here, is.
void TestCliRemote::versionIsCheckedOncePerCliFile()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString cli = m_tmp.filePath("logging-costscope-cli"), log = m_tmp.filePath("cli-calls.log");
    const auto install = [&](const QByteArray& script) {
        QFile::remove(cli);
        QFile f(cli);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n" + script);
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    };
    const auto calls = [&] { return takeLines(log); };
    install("echo \"$1\" >> '" + log.toUtf8() + "'\nexec '" + cliPath().toUtf8() + "' \"$@\"\n");
    QByteArray out, err;
    QVERIFY2(runCli(QStringList{"devices"} + remoteArgs(cli), &out, &err, 60000) == 0, err.constData());
    QCOMPARE(calls(), QStringList({"--version", "worker", "devices"})); // the first run starts the host's worker
    QVERIFY2(runCli(QStringList{"devices"} + remoteArgs(cli), &out, &err, 60000) == 0, err.constData());
    QCOMPARE(calls(), QStringList({"devices"})); // through the worker: the version not asked again
    QVERIFY2(out.startsWith("127.0.0.1/cpu  "), out.constData());
    QVERIFY2(!err.contains("costscope-cli-identity"), err.constData());
    install("echo 'costscope-cli 0.0.1'\n");
    QCOMPARE(runCli(QStringList{"devices"} + remoteArgs(cli), &out, &err, 60000), 3);
    QVERIFY2(err.contains("0.0.1 is older"), err.constData());
}

QTEST_GUILESS_MAIN(TestCliRemote)
#include "test_cli_remote.moc"
