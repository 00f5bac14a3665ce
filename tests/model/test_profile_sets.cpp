// SPDX-License-Identifier: MIT
// The rlx-linux and rlx-apple profile sets are data (resources/profiles/sets/*.json, compiled in): every field of
// every profile equals cost-model.md §4, the compiled copy is the file in the tree, and bad set files are refused
// with the place named.
#include "analysis/device_policy.h"
#include "analysis/profile_library.h"
#include "analysis/profile_set.h"
#include "analysis/rlx_profiles.h"
#include "test_paths.h"

#include <QFile>
#include <QTest>

#include <cctype>
#include <thread>

using namespace costscope;

namespace {

// One row of cost-model.md §4's table, with the calibration tag of §3 (RLX 0.2.16): the CPU rows are ArchDefault,
// the no-device fallbacks of CUDA, ROCm and wgpu Uncalibrated, and so is the discrete-GPU fallback that stands in
// for Metal (no known GPU family on these hosts), MLX, ANE and TPU.
struct SpecRow {
    double sgemm, dispatch, roundtrip, memoryBw, readbackBw;
    bool fallback;
    Calibration calibration;
};

constexpr SpecRow kGenericCpu{200, 300, 3000, 30, 30, false, Calibration::ArchDefault}; // best of SIMD 32, BLAS 200
constexpr SpecRow kAppleCpu{1000, 500, 5000, 50, 50, false, Calibration::ArchDefault};  // best of 72 and 1 000
constexpr SpecRow kCuda{12000, 3000, 35000, 900, 900, false, Calibration::Uncalibrated};
constexpr SpecRow kRocm{10000, 3000, 40000, 800, 800, false, Calibration::Uncalibrated};
constexpr SpecRow kWgpu{2500, 5000, 80000, 120, 120, false, Calibration::Uncalibrated};
constexpr SpecRow kFallback{800, 2000, 20000, 800, 50, true, Calibration::Uncalibrated}; // the discrete-GPU fallback

SpecRow specRow(Device d, bool apple)
{
    switch (d) {
    case Device::Cpu: return apple ? kAppleCpu : kGenericCpu;
    case Device::Cuda: return kCuda;
    case Device::Rocm: return kRocm;
    case Device::Gpu:
    case Device::Vulkan:
    case Device::WebGpu:
    case Device::DirectX:
    case Device::OpenGl: return kWgpu;
    default: return kFallback; // Metal, Mlx, Ane, Tpu under rlx-linux and rlx-apple
    }
}

void compareToSpec(const DeviceProfile& p, const SpecRow& want)
{
    QCOMPARE(p.sgemmGflops, want.sgemm);
    QCOMPARE(p.rlxSgemmGflops(1024, 1024, 1024), want.sgemm);
    QCOMPARE(p.rlxSgemmGflops(2, 2, 2), want.sgemm); // no small-shape rate in RLX's defaults
    QCOMPARE(p.dispatchNs, want.dispatch);
    QCOMPARE(p.roundtripNs, want.roundtrip);
    QCOMPARE(p.memoryBw, want.memoryBw);
    QCOMPARE(p.readbackBw(), want.readbackBw);
    QCOMPARE(p.unifiedMemory, false);
    QCOMPARE(p.rlxFallback, want.fallback);
    QCOMPARE(p.calibration, want.calibration);
    QCOMPARE(p.peakGflops, 0.0);
    QVERIFY(p.sgemmTable.empty());
    QVERIFY(p.corrections.empty());
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::string setText(const std::string& rows, const std::string& extra = {})
{
    return R"({"format": "costscope-profile-set", "version": 1, "name": "t", )" + extra + R"("rows": )" + rows + "}";
}

// setText() with every row tagged ArchDefault, so that the error under test is the one the row was written for.
QString taggedSet(const std::string& rows, const std::string& extra = {})
{
    std::string tagged = rows;
    const std::string row = R"({"devices")", with = R"({"calibration": "ArchDefault", "devices")";
    for (auto at = tagged.find(row); at != std::string::npos; at = tagged.find(row, at + with.size()))
        tagged.replace(at, row.size(), with);
    return QString::fromStdString(setText(tagged, extra));
}

} // namespace

class TestProfileSets : public QObject {
    Q_OBJECT
private slots:
    void compiledCopyIsTheFileInTheTree_data()
    {
        QTest::addColumn<QString>("set");
        QTest::newRow("rlx-linux") << "rlx-linux";
        QTest::newRow("rlx-apple") << "rlx-apple";
    }
    void compiledCopyIsTheFileInTheTree()
    {
        QFETCH(QString, set);
        const QByteArray file = readAll(costscope::test::sourcePath("resources/profiles/sets/" + set + ".json"));
        QVERIFY(!file.isEmpty());
        const std::string_view compiled = compiledProfileSetText(set.toStdString());
        QCOMPARE(QByteArray(compiled.data(), static_cast<qsizetype>(compiled.size())), file);
        auto parsed = profileSetFromJsonText(file.toStdString(), set.toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
        QCOMPARE(parsed->name, set.toStdString());
        QVERIFY(parsed->discreteGpuFallback.has_value());
        QVERIFY(compiledProfileSetText("rlx-windows").empty());
    }

    void everyProfileEqualsTheSpec_data()
    {
        QTest::addColumn<QString>("set");
        QTest::newRow("rlx-linux") << "rlx-linux";
        QTest::newRow("rlx-apple") << "rlx-apple";
    }
    void everyProfileEqualsTheSpec()
    {
        QFETCH(QString, set);
        const bool apple = set == "rlx-apple";
        const std::vector<DeviceProfile> profiles = rlxProfileSet(set.toStdString());
        QCOMPARE(profiles.size(), estimableDevices().size());
        for (std::size_t i = 0; i < profiles.size(); ++i) {
            const DeviceProfile& p = profiles[i];
            const Device d = estimableDevices()[i];
            QCOMPARE(p.device, d);
            std::string lower(deviceName(d));
            for (char& c : lower)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            QCOMPARE(p.name, set.toStdString() + "/" + lower);
            QCOMPARE(p.source, std::string("RLX built-in defaults (cost-model.md §4)"));
            compareToSpec(p, specRow(d, apple));
            if (d == Device::Cpu) {
                const auto env = envSetting(processEnvironment(), "WORKERS");
                const int cores = static_cast<int>(std::thread::hardware_concurrency());
                QCOMPARE(p.numThreads, rlxCpuWorkers(cores, env ? std::optional<std::string_view>(*env)
                                                                : std::nullopt) + 1);
            }
        }
    }

    void discreteGpuFallbackEqualsTheSpec()
    {
        const DeviceProfile p = rlxDiscreteGpuFallback();
        QCOMPARE(p.device, Device::Gpu);
        compareToSpec(p, kFallback);
    }

    void badSetsAreRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const std::string all = R"([{"devices": ["Cpu", "Metal", "Mlx", "Ane", "Cuda", "Rocm", "Gpu", "Vulkan",
                                     "WebGpu", "DirectX", "OpenGl", "Tpu"]}])";
        QTest::newRow("not json") << "{" << "t: not valid JSON";
        QTest::newRow("format") << R"({"format": "x", "version": 1, "name": "t", "rows": []})"
                                << "key 'format'";
        QTest::newRow("unknown key") << taggedSet(all, R"("extra": 1, )") << "key 'extra'";
        QTest::newRow("missing device") << taggedSet(R"([{"devices": ["Cpu"]}])") << "no row lists device Metal";
        QTest::newRow("twice") << taggedSet(R"([{"devices": ["Cpu"]}, {"devices": ["cpu"]}])")
                               << "rows[1]: device Cpu is listed twice";
        QTest::newRow("unknown device") << taggedSet(R"([{"devices": ["Toaster"]}])")
                                        << "rows[0]: key 'devices': unknown device \"Toaster\"";
        QTest::newRow("bad number") << taggedSet(R"([{"devices": ["Cpu"], "sgemm_gflops": "fast"}])")
                                    << "rows[0]: key 'sgemm_gflops': expected a number";
        QTest::newRow("no calibration")
            << QString::fromStdString(setText(R"([{"devices": ["Cpu"]}])"))
            << "rows[0]: key 'calibration': missing (Measured, ArchDefault or Uncalibrated)";
        QTest::newRow("unknown calibration")
            << QString::fromStdString(setText(R"([{"devices": ["Cpu"], "calibration": "Guessed"}])"))
            << "rows[0]: key 'calibration': unknown calibration 'Guessed'";
        QTest::newRow("name in a row") << taggedSet(R"([{"devices": ["Cpu"], "name": "x"}])") << "rows[0]: key 'name'";
    }
    void badSetsAreRefused()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        auto set = profileSetFromJsonText(text.toStdString(), "t");
        QVERIFY(!set.ok());
        QVERIFY2(QString::fromStdString(set.error().message).contains(message),
                 set.error().message.c_str());
    }

    // The set files sit in a subdirectory of the presets: the library does not take them for single profiles.
    void presetLibraryIgnoresSetFiles()
    {
        ProfilePaths paths;
        paths.presetDir = costscope::test::sourcePath("resources/profiles").toStdString();
        const ProfileLibrary lib = ProfileLibrary::load(paths);
        QVERIFY(lib.problems().empty());
        QVERIFY(lib.find("nvidia-h200"));
        QVERIFY(!lib.find("rlx-linux"));
        QVERIFY(!lib.find("rlx-apple"));
    }
};

QTEST_GUILESS_MAIN(TestProfileSets)
#include "test_profile_sets.moc"
