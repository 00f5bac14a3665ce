// SPDX-License-Identifier: MIT
#include "analysis/profile_io.h"
#include "analysis/profile_library.h"
#include "test_paths.h"

#include <QtTest>

#include <fstream>

using namespace costscope;

namespace {

void writeText(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString()) << text;
}

DeviceProfile sample()
{
    DeviceProfile p;
    p.name = "lab-gpu";
    p.device = Device::Vulkan;
    p.description = "a test";
    p.source = "bench run 3";
    p.sgemmGflops = 1234.5;
    p.smallSgemmGflops = 12;
    p.smallSgemmThreshold = 4096;
    p.dispatchNs = 4500;
    p.roundtripNs = 30000;
    p.memoryBw = 250;
    p.hostReadbackBw = 12;
    p.unifiedMemory = true;
    p.numThreads = 3;
    p.peakGflops = 2000;
    p.sgemmTable = {{64, 64, 64, 100}, {512, 512, 512, 900.5}};
    p.im2colBw = 222.5;
    p.matmulWaves = {128, 128, 8, 132, 880.5, 27000};
    p.memoryBwTable = {{65536, 40.5}, {1e8, 12}};
    p.kernelGflops = {{"Pool", 0.25}, {"Lrn", 1.5}};
    p.kernelGflopsBySize = {{"Activation.Gelu", {{4096, 0.5}, {262144, 1.75}}}};
    p.hostProbe = {250000, 40000.5, 1500000, 60000};
    p.convPerSample = true;
    p.gemmPacksB = true;
    p.viewCopyBw = 30;
    p.corrections = {{"matmul", 1.25}, {"elementwise", 0.8}};
    p.rlxFallback = true;
    p.calibration = Calibration::Measured; // not what rlx_fallback alone implies: read back as written
    return p;
}

} // namespace

class TestProfileIo : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const DeviceProfile p = sample();
        auto back = profileFromJsonText(profileToJsonText(p), "mem");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->name, p.name);
        QCOMPARE(back->device, p.device);
        QCOMPARE(back->description, p.description);
        QCOMPARE(back->source, p.source);
        QCOMPARE(back->sgemmGflops, p.sgemmGflops);
        QCOMPARE(back->smallSgemmGflops, p.smallSgemmGflops);
        QCOMPARE(back->smallSgemmThreshold, p.smallSgemmThreshold);
        QCOMPARE(back->dispatchNs, p.dispatchNs);
        QCOMPARE(back->roundtripNs, p.roundtripNs);
        QCOMPARE(back->memoryBw, p.memoryBw);
        QCOMPARE(back->hostReadbackBw, p.hostReadbackBw);
        QCOMPARE(back->unifiedMemory, p.unifiedMemory);
        QCOMPARE(back->numThreads, p.numThreads);
        QCOMPARE(back->peakGflops, p.peakGflops);
        QCOMPARE(back->sgemmTable.size(), std::size_t(2));
        QCOMPARE(back->sgemmTable[1].gflops, 900.5);
        QCOMPARE(back->sgemmTable[1].k, std::int64_t(512));
        QCOMPARE(back->im2colBw, 222.5);
        QCOMPARE(back->matmulWaves.concurrentTiles, 132.0);
        QCOMPARE(back->matmulWaves.stepNs, 880.5);
        QCOMPARE(back->matmulWaves.tileK, std::int64_t(8));
        QVERIFY(!back->convWaves.valid());
        QCOMPARE(back->memoryBwTable.size(), std::size_t(2));
        QCOMPARE(back->memoryBwTable[1].gbps, 12.0);
        QCOMPARE(back->kernelGflops, p.kernelGflops);
        QVERIFY(back->kernelGflopsBySize == p.kernelGflopsBySize);
        QVERIFY(back->hostProbe == p.hostProbe);
        QVERIFY(back->convPerSample && back->gemmPacksB);
        QCOMPARE(back->viewCopyBw, 30.0);
        QCOMPARE(back->corrections, p.corrections);
        QCOMPARE(back->rlxFallback, true);
        QCOMPARE(back->calibration, Calibration::Measured);
        QCOMPARE(profileToJsonText(*back), profileToJsonText(p));
    }

    // RLX 0.2.16's tag: written on save, read back in any case, and inferred for files that predate it.
    void calibrationTag()
    {
        QVERIFY(profileToJsonText(sample()).find("\"calibration\": \"Measured\"") != std::string::npos);
        auto lower = profileFromJsonText(R"({"name":"a","device":"Cuda","calibration":"uncalibrated"})", "f.json");
        QCOMPARE(lower->calibration, Calibration::Uncalibrated);
        QCOMPARE(profileFromJsonText(R"({"name":"a","device":"Cuda"})", "f.json")->calibration,
                 Calibration::ArchDefault);
        QCOMPARE(profileFromJsonText(R"({"name":"a","device":"Cuda","rlx_fallback":true})", "f.json")->calibration,
                 Calibration::Uncalibrated);
        for (Calibration c : {Calibration::Measured, Calibration::ArchDefault, Calibration::Uncalibrated})
            QCOMPARE(parseCalibration(calibrationName(c)), std::optional<Calibration>(c));
    }

    void badFilesNameFileAndKey_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("json") << "{\"name\": " << "f.json: not valid JSON";
        QTest::newRow("no name") << R"({"device":"Cuda"})" << "f.json: key 'name': missing";
        QTest::newRow("no device") << R"({"name":"a"})" << "f.json: key 'device': missing";
        QTest::newRow("bad device") << R"({"name":"a","device":"Quantum"})" << "key 'device': unknown device 'Quantum'";
        QTest::newRow("type") << R"({"name":"a","device":"Cpu","sgemm_gflops":"fast"})"
                              << "f.json: key 'sgemm_gflops': expected a number";
        QTest::newRow("negative") << R"({"name":"a","device":"Cpu","memory_bw_gbps":-1})"
                                  << "key 'memory_bw_gbps': must not be negative";
        QTest::newRow("unknown key") << R"({"name":"a","device":"Cpu","sgem_gflops":1})"
                                     << "key 'sgem_gflops': unknown key";
        QTest::newRow("table") << R"({"name":"a","device":"Cpu","sgemm_table":[{"m":1,"k":1,"n":1,"gflops":1},{"m":0}]})"
                               << "key 'sgemm_table[1].m': expected a positive integer";
        QTest::newRow("waves") << R"({"name":"a","device":"Vulkan","conv_waves":{"tile_m":64,"tile_n":64,"tile_k":16,"concurrent_tiles":0,"step_ns":1,"fixed_ns":0}})"
                               << "key 'conv_waves': tiles, concurrent_tiles and step_ns must be positive";
        QTest::newRow("waves field") << R"({"name":"a","device":"Vulkan","matmul_waves":{"tile_m":"x"}})"
                                     << "key 'matmul_waves.tile_m': expected a non-negative number";
        QTest::newRow("correction") << R"({"name":"a","device":"Cpu","corrections":{"matmul":"x"}})"
                                    << "key 'corrections.matmul': expected a positive number";
        QTest::newRow("kernel by size") << R"({"name":"a","device":"Cpu","kernel_gflops_by_size":{"Pool":[{"flops":0,"gflops":1}]}})"
                                        << "key 'kernel_gflops_by_size.Pool[0]': expected an object {flops, gflops}";
        QTest::newRow("calibration") << R"({"name":"a","device":"Cpu","calibration":"Guessed"})"
                                     << "f.json: key 'calibration': unknown calibration 'Guessed': expected Measured, "
                                        "ArchDefault or Uncalibrated";
        QTest::newRow("calibration type") << R"({"name":"a","device":"Cpu","calibration":1})"
                                          << "f.json: key 'calibration': expected a string";
        QTest::newRow("host probe") << R"({"name":"a","device":"Cpu","host_probe":{"gemm_ns":1,"kernel_ns":1,"memory_ns":1}})"
                                    << "key 'host_probe.dispatch_ns': expected an object";
    }
    void badFilesNameFileAndKey()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        auto r = profileFromJsonText(text.toStdString(), "f.json");
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error().message).contains(message), r.error().message.c_str());
    }

    void missingFileIsAnError()
    {
        auto r = loadProfileFile("/nonexistent/dir/p.json");
        QVERIFY(!r.ok());
        QVERIFY(QString::fromStdString(r.error().message).startsWith("/nonexistent/dir/p.json: "));
    }

    void rlxCacheConvertsFlopsPerSecond()
    {
        QTemporaryDir dir;
        writeText(dir.filePath("cuda-calib-rtx3090.json"),
                  R"({"device_name":"RTX 3090","sgemm_gflops":1.25e13,"roundtrip_overhead_ns":40000})");
        auto p = loadRlxCalibrationCache(dir.filePath("cuda-calib-rtx3090.json").toStdString());
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message.c_str());
        QCOMPARE(p->name, std::string("rlx-cache/cuda-calib-rtx3090"));
        QCOMPARE(p->device, Device::Cuda);
        QCOMPARE(p->sgemmGflops, 12500.0);
        QCOMPARE(p->roundtripNs, 40000.0);
        QCOMPARE(p->memoryBw, 900.0); // RLX's Cuda default: the cache has none
        QCOMPARE(p->dispatchNs, 3000.0);
        QCOMPARE(p->calibration, Calibration::Measured); // a calibration cache fed it
        QVERIFY(QString::fromStdString(p->description).contains("FLOP/s"));
        QVERIFY(QString::fromStdString(p->description).contains("RTX 3090"));

        writeText(dir.filePath("wgpu-calib-igpu.json"),
                  R"({"device_name":"iGPU","sgemm_gflops":800,"roundtrip_overhead_ns":90000,"memory_bw_gbps":60})");
        auto w = loadRlxCalibrationCache(dir.filePath("wgpu-calib-igpu.json").toStdString());
        QVERIFY(w.ok());
        QCOMPARE(w->device, Device::Gpu);
        QCOMPARE(w->sgemmGflops, 800.0);
        QCOMPARE(w->memoryBw, 60.0);
        QVERIFY(!QString::fromStdString(w->description).contains("FLOP/s"));

        writeText(dir.filePath("cuda-calib-broken.json"), R"({"device_name":"x"})");
        auto bad = loadRlxCalibrationCache(dir.filePath("cuda-calib-broken.json").toStdString());
        QVERIFY(!bad.ok());
        QVERIFY(QString::fromStdString(bad.error().message).contains("'sgemm_gflops'"));
    }

    void shippedPresetsLoad()
    {
        ProfilePaths paths;
        paths.presetDir = costscope::test::sourcePath("resources/profiles").toStdString();
        const ProfileLibrary lib = ProfileLibrary::load(paths);
        QVERIFY2(lib.problems().empty(), lib.problems().empty() ? "" : lib.problems()[0].message.c_str());
        for (const char* name : {"nvidia-h200", "nvidia-h100", "nvidia-a100", "nvidia-rtx4090", "apple-m3-max",
                                 "amd-mi300x", "generic-x86-16core", "rlx-metal", "rlx-mlx"}) {
            const DeviceProfile* p = lib.find(name);
            QVERIFY2(p, name);
            QVERIFY2(!p->source.empty(), name);
            QVERIFY2(p->sgemmGflops > 0 && p->memoryBw > 0, name);
        }
        QCOMPARE(lib.find("nvidia-h200")->memoryBw, 4800.0);
        // Datasheet presets and Metal with a known family (M3 Max) are ArchDefault; RLX's Metal preset has no known
        // family and MLX has no RLX defaults: Uncalibrated, as RLX 0.2.16 tags them.
        for (const char* name : {"nvidia-h200", "nvidia-h100", "nvidia-a100", "nvidia-rtx4090", "apple-m3-max",
                                 "amd-mi300x", "generic-x86-16core"})
            QCOMPARE(lib.find(name)->calibration, Calibration::ArchDefault);
        QCOMPARE(lib.find("rlx-metal")->calibration, Calibration::Uncalibrated);
        QCOMPARE(lib.find("rlx-mlx")->calibration, Calibration::Uncalibrated);
        QCOMPARE(lib.find("nvidia-h200")->peakGflops, 67000.0);
        QCOMPARE(lib.find("apple-m3-max")->unifiedMemory, true);
        QVERIFY(QString::fromStdString(lib.find("rlx-metal")->description).contains("no uncalibrated"));
    }

    void userProfilesUnderXdgDataHome()
    {
        QTemporaryDir home;
        const QByteArray old = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        ProfilePaths paths = ProfilePaths::defaults();
        if (old.isEmpty())
            qunsetenv("XDG_DATA_HOME");
        else
            qputenv("XDG_DATA_HOME", old);
        QCOMPARE(QString::fromStdString(paths.userDir), home.path() + "/costscope/profiles");
        paths.presetDir.clear();
        paths.rlxCacheDir = home.path().toStdString(); // no caches there

        ProfileLibrary lib = ProfileLibrary::load(paths);
        QVERIFY(lib.entries().empty());
        auto written = lib.saveUserProfile(sample());
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QCOMPARE(QString::fromStdString(*written), home.path() + "/costscope/profiles/lab-gpu.json");
        const ProfileLibrary again = ProfileLibrary::load(paths);
        QCOMPARE(again.entries().size(), std::size_t(1));
        QCOMPARE(again.entries()[0].origin, ProfileLibrary::Origin::User);
        QCOMPARE(again.find("lab-gpu")->sgemmGflops, 1234.5);
    }

    void badPresetDoesNotHideTheOthers()
    {
        QTemporaryDir dir;
        writeText(dir.filePath("good.json"), R"({"name":"good","device":"Cpu"})");
        writeText(dir.filePath("bad.json"), R"({"name":"bad","device":"Cpu","dispatch_ns":"slow"})");
        ProfilePaths paths;
        paths.presetDir = dir.path().toStdString();
        const ProfileLibrary lib = ProfileLibrary::load(paths);
        QVERIFY(lib.find("good"));
        QVERIFY(!lib.find("bad"));
        QCOMPARE(lib.problems().size(), std::size_t(1));
        QVERIFY(QString::fromStdString(lib.problems()[0].message).contains("bad.json: key 'dispatch_ns'"));
    }
};

QTEST_GUILESS_MAIN(TestProfileIo)
#include "test_profile_io.moc"
