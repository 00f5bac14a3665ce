// SPDX-License-Identifier: MIT
// costscope-cli run / calibrate --device all: every device of a backend, per-device profiles, and exit 3 only when no
// device is left (GPUs hidden, plugin missing). The CUDA case runs where a GPU is, and skips cleanly elsewhere.
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace costscope::test;

namespace {
int deviceCount(const QString& backend)
{
    QByteArray out;
    if (runCli({"devices", "--json"}, &out) != 0)
        return 0;
    int n = 0;
    for (const auto& d : QJsonDocument::fromJson(out).object()["devices"].toArray())
        n += d.toObject()["backend"].toString() == backend;
    return n;
}

// Every device ran isolated and concurrently, with a prediction; returns the devices.
QJsonArray checkAllRan(const QByteArray& out, int devices)
{
    const QJsonObject j = QJsonDocument::fromJson(out).object();
    const QJsonArray list = j["devices"].toArray();
    if (list.size() != devices)
        return {};
    for (const auto& v : list) {
        const QJsonObject d = v.toObject();
        if (!d["ok"].toBool() || d["isolated"].toObject()["median_ns"].toDouble() <= 0
            || d["concurrent"].toObject()["median_ns"].toDouble() <= 0
            || d["predicted"].toObject()["costscope"].toObject()["total_ns"].toDouble() <= 0)
            return {};
    }
    return j["spread"].toArray().isEmpty() ? QJsonArray{} : list;
}
} // namespace

class TestCliAllDevices : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // User profiles go to $XDG_DATA_HOME/costscope/profiles: keep the test's away from the real ones.
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

    void cpuProfilesPerDeviceArePickedByRun()
    {
        QByteArray out, err;
        // A short predictor budget: each device's profile learns its kernel predictors as a one-device calibrate does.
        // The limit is test_cli_calibrate's: a quick CPU calibration beside the other tests took over 120 s.
        QVERIFY2(
            runCli({"calibrate", "--backend", "cpu", "--device", "all", "--quick", "--json", "--predictor-budget", "6"},
                   &out, &err, 300000)
                == 0,
            err.constData());
        const QJsonArray calibrated = QJsonDocument::fromJson(out).object()["devices"].toArray();
        QCOMPARE(calibrated.size(), 1);
        const QString profile = calibrated[0].toObject()["profile"].toString();
        QVERIFY2(profile.startsWith("calibrated-cpu-") && profile.endsWith("-dev0"), qPrintable(profile));
        QFile saved(calibrated[0].toObject()["saved_to"].toString());
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QJsonObject predictors =
            QJsonDocument::fromJson(saved.readAll()).object()["kernel_predictors"].toObject();
        QVERIFY2(predictors.contains("matmul"), qPrintable(QStringList(predictors.keys()).join(',')));

        QVERIFY2(runCli({"run", sourcePath("resources/examples/cnn.hir.json"), "--backend", "cpu", "--device", "all",
                         "--runs", "2", "--warmup", "1", "--json"},
                        &out, &err)
                     == 0,
                 err.constData());
        const QJsonArray ran = checkAllRan(out, 1);
        QVERIFY2(!ran.isEmpty(), out.constData());
        QCOMPARE(ran[0].toObject()["predicted"].toObject()["costscope"].toObject()["profile"].toString(), profile);
        // A single-device run picks the device's own profile too.
        QVERIFY2(runCli({"run", sourcePath("resources/examples/cnn.hir.json"), "--runs", "2", "--json"}, &out, &err)
                     == 0,
                 err.constData());
        const QJsonObject predicted = QJsonDocument::fromJson(out).object()["predicted"].toObject();
        QCOMPARE(predicted["costscope"].toObject()["profile"].toString(), profile);
    }

    void vulkanEveryDeviceEndToEnd()
    {
        const int devices = deviceCount("vulkan");
        if (devices == 0)
            QSKIP("no Vulkan device (lavapipe comes with mesa-vulkan-drivers)");
        QByteArray out, err;
        const QString graph = sourcePath("resources/examples/cnn.hir.json");
        QVERIFY2(
            runCli({"run", graph, "--backend", "vulkan", "--device", "all", "--runs", "2", "--warmup", "1", "--json"},
                   &out, &err, 600000)
                == 0,
            err.constData());
        QVERIFY2(!checkAllRan(out, devices).isEmpty(), out.constData());
        QVERIFY2(runCli({"run", graph, "--backend", "vulkan", "--device", "all", "--runs", "2", "--warmup", "1"}, &out,
                        &err, 600000)
                     == 0,
                 err.constData());
        QVERIFY2(out.contains("isolated") && out.contains("concurrent") && out.contains("spread of"), out.constData());
    }

    void cudaEveryGpu()
    {
        const int devices = deviceCount("cuda");
        if (devices == 0)
            QSKIP("no CUDA device");
        QByteArray out, err;
        QVERIFY2(runCli({"run", sourcePath("resources/examples/cnn.hir.json"), "--backend", "cuda", "--device", "all",
                         "--runs", "5", "--json"},
                        &out, &err, 300000)
                     == 0,
                 err.constData());
        const QJsonArray ran = checkAllRan(out, devices);
        QVERIFY2(!ran.isEmpty(), out.constData());
        for (const auto& d : ran)
            QVERIFY(!d.toObject()["pci_bus_id"].toString().isEmpty());
    }

    void noGpuIsExitThreeWithWhy()
    {
        const QString graph = sourcePath("resources/examples/cnn.hir.json");
        QByteArray err;
        qputenv("CUDA_VISIBLE_DEVICES", "");
        const int hidden = runCli({"run", graph, "--backend", "cuda", "--device", "all"}, nullptr, &err);
        QByteArray calibrateErr;
        const int calibrate =
            runCli({"calibrate", "--backend", "cuda", "--device", "all", "--quick"}, nullptr, &calibrateErr);
        qunsetenv("CUDA_VISIBLE_DEVICES");
        QCOMPARE(hidden, 3);
        // Without the CUDA plugin in this build, it is the plugin's absence that is named.
        QVERIFY2(err.contains("has no devices") || err.contains("unavailable"), err.constData());
        QCOMPARE(calibrate, 3);
        QVERIFY2(calibrateErr.contains("has no devices") || calibrateErr.contains("unavailable"),
                 calibrateErr.constData());

        QTemporaryDir noPlugins;
        qputenv("COSTSCOPE_PLUGIN_PATH", noPlugins.path().toUtf8());
        const int missing = runCli({"run", graph, "--backend", "cuda", "--device", "all"}, nullptr, &err);
        qunsetenv("COSTSCOPE_PLUGIN_PATH");
        QCOMPARE(missing, 3);
        QVERIFY2(err.contains("unavailable") && err.contains("not installed"), err.constData());
    }

    void allTakesNoSingleDeviceOptions()
    {
        const QString graph = sourcePath("resources/examples/cnn.hir.json");
        QByteArray err;
        QCOMPARE(runCli({"run", graph, "--device", "all", "--reference", "cpu"}, nullptr, &err), 2);
        QVERIFY(err.contains("--device all takes no"));
        QCOMPARE(runCli({"calibrate", "--device", "all", "--save", "mine"}, nullptr, &err), 2);
    }

private:
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestCliAllDevices)
#include "test_cli_all_devices.moc"
