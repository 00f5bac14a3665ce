// SPDX-License-Identifier: MIT
// Device ids on the command line (issue 23): "cpu:0" and "local/cpu:0" run here; "HOST/cuda:0" needs --remote to that
// host (run, calibrate, evaluate) or the host's calibration kept here (analyze, sweep), and otherwise ends in exit 3
// naming the remotes that are configured. The loopback-ssh half is in test_cli_remote.
#include "test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace costscope::test;

class TestCliDeviceIds : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8()); // the host profiles below, none of the user's
    }

    void localIdsRunHere()
    {
        QByteArray out, err;
        QVERIFY2(runCli({"devices", "--json"}, &out, &err) == 0, err.constData());
        QCOMPARE(QJsonDocument::fromJson(out).object()["devices"].toArray()[0].toObject()["id"].toString(),
                 QString("cpu:0"));
        for (const char* id : {"cpu:0", "local/cpu:0"}) {
            QVERIFY2(
                runCli({"run", graph(), "--device", id, "--runs", "1", "--warmup", "0", "--no-host-probe", "--json"},
                       &out, &err)
                    == 0,
                err.constData());
            const QJsonObject j = QJsonDocument::fromJson(out).object();
            QCOMPARE(j["backend"].toString(), QString("cpu"));
            QCOMPARE(j["device"].toObject()["index"].toInt(), 0);
        }
        QCOMPARE(runCli({"run", graph(), "--device", "cpu:0", "--backend", "vulkan"}, &out, &err), 3);
        QVERIFY2(err.contains("--device cpu:0 is a cpu device, but --backend says vulkan"), err.constData());
        QCOMPARE(runCli({"run", graph(), "--device", "cpu:9", "--runs", "1"}, &out, &err), 3);
        QVERIFY2(err.contains("has no device 9"), err.constData());
        QCOMPARE(runCli({"run", graph(), "--device", "cuda"}, &out, &err), 2);
        QVERIFY2(err.contains("--device 'cuda' has no device index"), err.constData());
    }

    void hostIdsNeedTheirRemote()
    {
        QByteArray out, err;
        const QString none = "'gpu7' is not a configured remote (remotes configured: none; add --remote USER@gpu7)";
        QCOMPARE(runCli({"run", graph(), "--device", "gpu7/cuda:0"}, &out, &err), 3);
        QVERIFY2(err.contains(none.toUtf8()), err.constData());
        QCOMPARE(runCli({"calibrate", "--device", "gpu7/cpu", "--quick"}, &out, &err), 3);
        QVERIFY2(err.contains(none.toUtf8()), err.constData());
        QCOMPARE(runCli({"evaluate", "--device", "gpu7/cuda:1"}, &out, &err), 3);
        QVERIFY2(err.contains(none.toUtf8()), err.constData());
        // --remote configures another host: checked before any connection is tried.
        QCOMPARE(runCli({"run", graph(), "--device", "gpu7/cuda:0", "--remote", "me@gpu8"}, &out, &err), 3);
        QVERIFY2(err.contains("'gpu7' is not a configured remote (remotes configured: gpu8)"), err.constData());
    }

    // The estimating commands take a host's id where its calibration is kept here (calibrate --remote saves it as
    // HOST/calibrated-BACKEND), beside local ids.
    void hostIdsEstimateUnderTheHostsCalibration()
    {
        QByteArray out, err;
        QCOMPARE(runCli({"analyze", graph(), "--device", "gpu7/cuda:0"}, &out, &err), 3);
        QVERIFY2(err.contains("'gpu7' is not a configured remote: no calibration of its cuda devices here (hosts "
                              "calibrated here: none"),
                 err.constData());

        QFile sheet(sourcePath("resources/profiles/nvidia-h100.json"));
        QVERIFY(sheet.open(QIODevice::ReadOnly));
        QJsonObject profile = QJsonDocument::fromJson(sheet.readAll()).object();
        profile["name"] = "gpu7/calibrated-cuda";
        profile["calibration"] = "Measured";
        QVERIFY(QDir().mkpath(m_home.filePath("costscope/profiles")));
        QFile kept(m_home.filePath("costscope/profiles/gpu7-calibrated-cuda.json"));
        QVERIFY(kept.open(QIODevice::WriteOnly));
        kept.write(QJsonDocument(profile).toJson());
        kept.close();

        QVERIFY2(runCli({"analyze", graph(), "--device", "cpu:0,gpu7/cuda:0", "--json"}, &out, &err) == 0,
                 err.constData());
        const QJsonArray devices = QJsonDocument::fromJson(out).object()["devices"].toArray();
        QCOMPARE(devices.size(), 2);
        QCOMPARE(devices[0].toObject()["device_id"].toString(), QString("cpu:0"));
        QCOMPARE(devices[1].toObject()["device_id"].toString(), QString("gpu7/cuda:0"));
        QCOMPARE(devices[1].toObject()["profile"].toString(), QString("gpu7/calibrated-cuda"));
        QCOMPARE(devices[1].toObject()["calibration"].toString(), QString("Measured"));

        QVERIFY2(runCli({"sweep", graph(), "--device", "gpu7/cuda:0", "--values", "1,2", "--json"}, &out, &err) == 0,
                 err.constData());
        QCOMPARE(QJsonDocument::fromJson(out).object()["devices"].toArray()[0].toObject()["profile"].toString(),
                 QString("gpu7/calibrated-cuda"));

        QCOMPARE(runCli({"analyze", graph(), "--device", "gpu8/cuda:0"}, &out, &err), 3);
        QVERIFY2(err.contains("(hosts calibrated here: gpu7;"), err.constData());
    }

private:
    static QString graph() { return sourcePath("resources/examples/cnn.hir.json"); }
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestCliDeviceIds)
#include "test_cli_device_ids.moc"
