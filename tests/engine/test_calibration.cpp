// SPDX-License-Identifier: MIT
// CPU microbenchmarks: figures in a sane range, mapped onto a profile that survives a save and a load.
#include "analysis/profile_io.h"
#include "analysis/profile_library.h"
#include "calibration/cpu_calibrate.h"

#include <QTemporaryDir>
#include <QTest>

using namespace costscope;

class TestCalibration : public QObject {
    Q_OBJECT
private slots:
    void quickCalibrationIsSane()
    {
        CpuCalibrationOptions o;
        o.quick = true;
        o.repeats = 3;
        auto c = calibrateCpu(o);
        QVERIFY2(c, c ? "" : c.error().message.c_str());
        QCOMPARE(c->sgemm.size(), cpuSgemmGrid(true).size());
        double best = 0;
        for (const SgemmPoint& p : c->sgemm) {
            QVERIFY(p.gflops > 0.01 && p.gflops < 1e5);
            best = std::max(best, p.gflops);
        }
        // Rates turn back into times: a 512³ product (32768× the FLOPs) must take longer than a 16³ one.
        auto ns = [&](std::int64_t s) {
            for (const SgemmPoint& p : c->sgemm)
                if (p.m == s && p.k == s && p.n == s)
                    return 2.0 * double(s * s * s) / p.gflops;
            return 0.0;
        };
        QVERIFY(ns(512) > ns(16));
        for (double bw : {c->readBw, c->writeBw, c->copyBw, c->hostReadbackBw})
            QVERIFY(bw > 0.1 && bw < 5000); // GB/s
        QVERIFY(c->roundtripNs > 0 && c->roundtripNs < 1e7);
        QVERIFY(c->dispatchNs >= 0 && c->dispatchNs < 1e6);
        QVERIFY(c->numThreads >= 1);
        // Kernels at several sizes, ascending in FLOPs; the largest is the single rate.
        for (const char* key : {"Activation.Gelu", "Activation.Relu", "Activation", "Pool", "LayerNorm", "Binary.Pow"}) {
            const auto it = c->kernelGflopsBySize.find(key);
            QVERIFY2(it != c->kernelGflopsBySize.end() && it->second.size() >= 2, key);
            for (std::size_t i = 0; i < it->second.size(); ++i) {
                QVERIFY(it->second[i].gflops > 0 && it->second[i].flops > 0);
                QVERIFY(i == 0 || it->second[i].flops > it->second[i - 1].flops);
            }
            QCOMPARE(c->kernelGflops.at(key), it->second.back().gflops);
        }

        const DeviceProfile p = profileFromCpuCalibration(*c, "calibrated-test", "host", "2026-01-01", "costscope-cli calibrate");
        QCOMPARE(p.sgemmGflops, best);
        QCOMPARE(p.memoryBw, c->copyBw);
        QCOMPARE(p.source, std::string("calibrated on host 2026-01-01 by costscope-cli calibrate"));

        QTemporaryDir dir;
        ProfileLibrary lib = ProfileLibrary::load({"", dir.path().toStdString(), ""});
        auto path = lib.saveUserProfile(p);
        QVERIFY(path);
        auto back = loadProfileFile(*path);
        QVERIFY(back);
        QCOMPARE(back->sgemmTable.size(), p.sgemmTable.size());
        QVERIFY(std::abs(back->sgemmGflops - p.sgemmGflops) < 1e-6 * p.sgemmGflops);
        QVERIFY(std::abs(back->dispatchNs - p.dispatchNs) < 1e-3 + 1e-6 * p.dispatchNs);
        QCOMPARE(back->source, p.source);
        QCOMPARE(back->kernelGflopsBySize.size(), p.kernelGflopsBySize.size());
        QVERIFY(c->probe.valid());
        QVERIFY(back->hostProbe == p.hostProbe && p.hostProbe == c->probe);
        QVERIFY(ProfileLibrary::load({"", dir.path().toStdString(), ""}).find("calibrated-test"));
    }
    void gridCoversSkinnyShapes()
    {
        bool skinny = false;
        for (const SgemmPoint& p : cpuSgemmGrid(false))
            skinny = skinny || (p.m <= 4 && p.n >= 512);
        QVERIFY(skinny);
        QVERIFY(cpuSgemmGrid(true).size() < cpuSgemmGrid(false).size());
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "test_calibration.moc"
