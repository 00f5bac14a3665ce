// SPDX-License-Identifier: MIT
// costscope-cli calibrate / fit and run's predictions: the saved profile, the JSON keys and the exit codes.
#include "test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace costscope::test;

class TestCliCalibrate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // User profiles go to $XDG_DATA_HOME/costscope/profiles: keep the test's away from the real ones.
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

    void calibrateSavesAProfile()
    {
        QByteArray out, err;
        // A short predictor budget: the kernel sampler's and the zoo's smallest graphs, enough to train some classes.
        // The budget is wall time: 8 s left the element-wise class short of samples under ASan on a busy two-core
        // machine (attention, conv and matmul trained; elementwise did not), so 20.
        const int code = runCli({"calibrate", "--backend", "cpu", "--quick", "--save", "calibrated-cpu", "--json",
                                 "--predictor-budget", "20"},
                                &out, &err, 300000);
        QVERIFY2(code == 0, err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["name"].toString(), QString("calibrated-cpu"));
        QVERIFY(j["sgemm_gflops"].toDouble() > 0.1);
        QVERIFY(j["sgemm_table"].toArray().size() >= 4);
        QVERIFY(j["memory_bw_gbps"].toDouble() > 0.1);
        QVERIFY(j["source"].toString().contains("by costscope-cli calibrate"));
        QVERIFY(j["host_probe"].toObject()["gemm_ns"].toDouble() > 0);
        QVERIFY(j["kernel_gflops_by_size"].toObject().contains("Activation.Gelu"));
        // Learned kernel predictors (XGBoost's JSON model per class) and how kernels add up to a graph.
        const QJsonObject predictors = j["kernel_predictors"].toObject();
        QVERIFY2(predictors.contains("elementwise") && predictors.contains("matmul"),
                 qPrintable(QStringList(predictors.keys()).join(',')));
        QVERIFY(predictors["matmul"].toObject()["samples"].toInt() >= 12);
        QVERIFY(predictors["matmul"].toObject()["xgboost"].toObject().contains("learner"));
        QVERIFY(QFile::exists(m_home.filePath("costscope/profiles/calibrated-cpu.json")));
        QByteArray listed;
        QCOMPARE(runCli({"profiles", "show", "calibrated-cpu"}, &listed), 0);
        QVERIFY(listed.contains("calibrated-cpu"));
    }

    void calibrateVulkanSavesWavesAndRunUsesThem()
    {
        QByteArray devices;
        QCOMPARE(runCli({"devices", "--json"}, &devices), 0);
        bool vulkan = false;
        for (const auto& d : QJsonDocument::fromJson(devices).object()["devices"].toArray())
            vulkan = vulkan || d.toObject()["backend"].toString() == QStringLiteral("vulkan");
        if (!vulkan)
            QSKIP("no Vulkan device (lavapipe comes with mesa-vulkan-drivers)");
        QByteArray out, err;
        // Lavapipe runs the shaders on this machine's CPU: a quick calibration takes a minute or more on two cores.
        const int code =
            runCli({"calibrate", "--backend", "vulkan", "--quick", "--json", "--no-predictors"}, &out, &err, 600000);
        QVERIFY2(code == 0, err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["name"].toString(), QString("calibrated-vulkan"));
        QCOMPARE(j["device"].toString(), QString("Vulkan"));
        QCOMPARE(j["sgemm_table"].toArray().size(), 6); // 64, 128, 256: square and k = s/4
        QVERIFY(j["memory_bw_gbps"].toDouble() > 0);
        QVERIFY(j["dispatch_ns"].toDouble() > 0);
        for (const char* key : {"matmul_waves", "conv_waves"}) {
            const QJsonObject w = j[key].toObject();
            QVERIFY2(w["concurrent_tiles"].toDouble() >= 1 && w["step_ns"].toDouble() > 0, key);
        }
        QCOMPARE(j["matmul_waves"].toObject()["tile_m"].toInt(), 128);
        QCOMPARE(j["conv_waves"].toObject()["tile_k"].toInt(), 16);
        QVERIFY(QFile::exists(m_home.filePath("costscope/profiles/calibrated-vulkan.json")));

        COSTSCOPE_REQUIRE_SHARED();
        QByteArray run;
        QVERIFY2(runCli({"run", sharedPath("data/rlx/mnist.hir.json"), "--backend", "vulkan", "--runs", "2",
                         "--warmup", "1", "--json"},
                        &run, &err) == 0,
                 err.constData());
        const QJsonObject predicted = QJsonDocument::fromJson(run).object()["predicted"].toObject();
        QCOMPARE(predicted["costscope"].toObject()["profile"].toString(), QString("calibrated-vulkan"));
        QCOMPARE(runCli({"calibrate", "--backend", "vulkan", "--device", "7"}), 3);
        QCOMPARE(runCli({"calibrate", "--backend", "vulkan", "--device", "x"}), 2);
    }

    void runPredictsAndFitLearns()
    {
        COSTSCOPE_REQUIRE_SHARED();
        const QString runFile = m_home.filePath("mnist_run.json");
        QByteArray out, err;
        const int code = runCli({"run", sharedPath("data/rlx/mnist.hir.json"), "--batch", "8", "--runs", "3",
                                 "--warmup", "1", "--per-node", "--json"},
                                &out, &err);
        QVERIFY2(code == 0, err.constData());
        const QJsonObject j = QJsonDocument::fromJson(out).object();
        QCOMPARE(j["batch"].toInt(), 8);
        const QJsonObject predicted = j["predicted"].toObject();
        QVERIFY(predicted["rlx"].toObject()["total_ns"].toDouble() > 0);
        QCOMPARE(predicted["costscope"].toObject()["profile"].toString(), QString("calibrated-cpu"));
        QVERIFY(j["per_node"].toArray()[0].toObject()["predicted_ns"].toObject().contains("costscope"));
        // The calibrated profile holds a host probe: the run re-times it and adds the host-adjusted prediction.
        const QJsonObject host = j["host_speed"].toObject();
        for (const char* k : {"gemm", "kernel", "memory", "dispatch"})
            QVERIFY2(host[k].toDouble() > 0.05 && host[k].toDouble() < 20, k);
        QCOMPARE(predicted["costscope_host_adjusted"].toObject()["profile"].toString(), QString("calibrated-cpu"));
        QVERIFY(j["per_node"].toArray()[0].toObject()["predicted_ns"].toObject()["costscope_host_adjusted"].toDouble() > 0);
        QByteArray plain;
        QCOMPARE(runCli({"run", sharedPath("data/rlx/mnist.hir.json"), "--runs", "1", "--no-host-probe", "--json"},
                        &plain, &err),
                 0);
        QVERIFY(!QJsonDocument::fromJson(plain).object().contains("host_speed"));
        QFile f(runFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(out);
        f.close();

        QByteArray fitOut;
        QCOMPARE(runCli({"fit", "--profile", "calibrated-cpu", runFile, "--json"}, &fitOut, &err), 0);
        const QJsonObject fit = QJsonDocument::fromJson(fitOut).object();
        const QJsonObject corrections = fit["corrections"].toObject();
        QVERIFY(!corrections.isEmpty());
        // The log least-squares fit does not promise a lower MAPE (on a loaded machine it can rise); it promises
        // clamped factors for classes with enough samples, the same nodes scored before and after, and the
        // factors stored in the profile.
        for (auto it = corrections.begin(); it != corrections.end(); ++it) {
            QVERIFY(it.value().toDouble() >= 0.05 && it.value().toDouble() <= 20.0);
            QVERIFY(fit["samples"].toObject()[it.key()].toInt() >= 3);
        }
        QCOMPARE(fit["nodes"].toObject()["after"].toObject()["count"].toInt(),
                 fit["nodes"].toObject()["before"].toObject()["count"].toInt());
        QByteArray shown;
        QCOMPARE(runCli({"profiles", "show", "calibrated-cpu"}, &shown), 0);
        const QJsonObject stored = QJsonDocument::fromJson(shown).object()["corrections"].toObject();
        QCOMPARE(stored.keys(), corrections.keys());
        for (const QString& cls : corrections.keys()) {
            const double want = corrections[cls].toDouble();
            QVERIFY(std::abs(stored[cls].toDouble() - want) < 1e-9 * want);
        }
    }

    void exitCodes()
    {
        QCOMPARE(runCli({"calibrate", "--backend", "tpu"}), 2);
        QCOMPARE(runCli({"calibrate", "stray"}), 2);
        QCOMPARE(runCli({"fit", "--profile", "calibrated-cpu"}), 2);
        QCOMPARE(runCli({"fit", "--profile", "no-such-profile", "x.json"}), 2);
        QCOMPARE(runCli({"fit", "--profile", "calibrated-cpu", m_home.filePath("missing.json")}), 3);
        QCOMPARE(runCli({"fit", "--profile", "calibrated-cpu", "--prior-runs", "-1", "x.json"}), 2);
        QCOMPARE(runCli({"fit", "--profile", "calibrated-cpu", "--prior-runs", "two", "x.json"}), 2);
        COSTSCOPE_REQUIRE_SHARED();
        QCOMPARE(runCli({"run", sharedPath("data/rlx/mnist.hir.json"), "--profile", "no-such-profile"}), 2);
        QCOMPARE(runCli({"analyze", sharedPath("data/rlx/mnist.hir.json"), "--batch", "0"}), 2);
    }

private:
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "test_cli_calibrate.moc"
