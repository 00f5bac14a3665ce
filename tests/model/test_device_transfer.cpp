// SPDX-License-Identifier: MIT
// Devices you do not have: a calibrated profile carried to another device by datasheet ratios (compute by FP32
// peak, memory by bandwidth; dispatch, composition and predictors kept), labelled transferred through the JSON and
// the cost model, refused across device kinds; and the datasheet preset found from a GPU's name.
#include "analysis/costscope_cost_model.h"
#include "analysis/device_transfer.h"
#include "analysis/kernel_predictor.h"
#include "analysis/profile_io.h"
#include "edit/graph_builder.h"

#include <QTest>

using namespace costscope;

namespace {

DeviceProfile sheet(const std::string& name, double peak, double bw)
{
    DeviceProfile p;
    p.name = name;
    p.device = Device::Cuda;
    p.calibration = Calibration::ArchDefault;
    p.description = "datasheet of " + name;
    p.peakGflops = peak;
    p.sgemmGflops = peak * 0.8;
    p.memoryBw = bw;
    p.hostReadbackBw = 55;
    return p;
}

DeviceProfile calibratedH100()
{
    DeviceProfile p;
    p.name = "calibrated-cuda";
    p.device = Device::Cuda;
    p.calibration = Calibration::Measured;
    p.description = "NVIDIA H100 80GB HBM3, calibrated";
    p.sgemmGflops = 50000;
    p.peakGflops = 67000;
    p.sgemmTable = {{256, 256, 256, 10000}, {4096, 4096, 4096, 51000}};
    p.memoryBw = 3000;
    p.memoryBwTable = {{1e6, 1500}, {1e9, 3000}};
    p.kernelGflops = {{"Softmax", 400}};
    p.dispatchNs = 800;
    p.roundtripNs = 8000;
    p.hostReadbackBw = 54;
    p.graphComposition = {1.02, -300, 2500};
    p.kernelPredictors = std::make_shared<const KernelPredictors>();
    return p;
}

Graph elementwiseGraph()
{
    edit::GraphBuilder b("ew");
    const NodeId x = b.leaf(OpKind::Input, "x", Shape::of({1 << 24}));
    const NodeId y = b.leaf(OpKind::Input, "y", Shape::of({1 << 24}));
    return b.finish({b.sub(OpKind::Binary, "Add", {x, y})});
}

} // namespace

class TestDeviceTransfer : public QObject {
    Q_OBJECT
private slots:
    void scalesRatesKeepsSoftware()
    {
        const DeviceProfile h100 = sheet("nvidia-h100", 67000, 3350), h200 = sheet("nvidia-h200", 67000, 4800);
        const DeviceProfile m = calibratedH100();
        auto t = transferProfile(m, h100, h200);
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(t->name, std::string("transferred-nvidia-h200-from-calibrated-cuda"));
        const double mem = 4800.0 / 3350.0;
        QCOMPARE(t->memoryBw, 3000 * mem);
        QCOMPARE(t->memoryBwTable[0].gbps, 1500 * mem);
        QCOMPARE(t->sgemmTable[1].gflops, 51000.0); // same FP32 peak
        QCOMPARE(t->kernelGflops.at("Softmax"), 400.0);
        QCOMPARE(t->dispatchNs, m.dispatchNs);
        QCOMPARE(t->roundtripNs, m.roundtripNs);
        QCOMPARE(t->graphComposition.perKernelNs, m.graphComposition.perKernelNs);
        QCOMPARE(t->kernelPredictors.get(), m.kernelPredictors.get());
        QCOMPARE(t->calibration, Calibration::Measured);
        QVERIFY(t->transferredFrom.find("calibrated-cuda") != std::string::npos);
        QVERIFY(t->transferredFrom.find("memory x1.433") != std::string::npos);

        // An RTX 4090 (82.6 TFLOP/s FP32, 1008 GB/s): faster arithmetic, slower memory.
        auto g = transferProfile(m, h100, sheet("nvidia-rtx4090", 82600, 1008), "my-4090");
        QVERIFY(g);
        QCOMPARE(g->name, std::string("my-4090"));
        QCOMPARE(g->sgemmTable[1].gflops, 51000 * 82600.0 / 67000.0);
        QCOMPARE(g->memoryBw, 3000 * 1008.0 / 3350.0);
    }

    void predictionsFollowAndSayTransferred()
    {
        const DeviceProfile m = calibratedH100();
        auto t = transferProfile(m, sheet("nvidia-h100", 67000, 3350), sheet("nvidia-h200", 67000, 4800));
        QVERIFY(t);
        const Graph g = elementwiseGraph();
        const GraphCost before = CostscopeCostModel().estimate(g, m);
        const GraphCost after = CostscopeCostModel().estimate(g, *t);
        QVERIFY(before.transferredFrom.empty());
        QCOMPARE(after.transferredFrom, t->transferredFrom);
        // A 200 MB streaming Add is memory-bound: its kernel time falls by the bandwidth ratio.
        const double ratio = before.nodes.back().kernelNs() / after.nodes.back().kernelNs();
        QVERIFY2(std::abs(ratio - 4800.0 / 3350.0) < 0.05, qPrintable(QString::number(ratio)));
    }

    void jsonRoundTripKeepsTheLabel()
    {
        auto t =
            transferProfile(calibratedH100(), sheet("nvidia-h100", 67000, 3350), sheet("nvidia-h200", 67000, 4800));
        QVERIFY(t);
        auto back = profileFromJsonText(profileToJsonText(*t), "transferred.json");
        QVERIFY(back);
        QCOMPARE(back->transferredFrom, t->transferredFrom);
        QCOMPARE(back->memoryBw, t->memoryBw);
        // A profile that was never transferred writes no such key.
        QVERIFY(profileToJsonText(calibratedH100()).find("transferred_from") == std::string::npos);
    }

    void refusesAcrossDeviceKinds()
    {
        DeviceProfile cpuSheet = sheet("generic-x86-16core", 2000, 80);
        cpuSheet.device = Device::Cpu;
        auto t = transferProfile(calibratedH100(), sheet("nvidia-h100", 67000, 3350), cpuSheet);
        QVERIFY(!t);
        QVERIFY2(t.error().message.find("generic-x86-16core") != std::string::npos, t.error().message.c_str());
        auto u = transferProfile(calibratedH100(), cpuSheet, sheet("nvidia-h200", 67000, 4800));
        QVERIFY(!u);
        DeviceProfile empty = sheet("nvidia-x", 0, 0);
        auto v = transferProfile(calibratedH100(), sheet("nvidia-h100", 67000, 3350), empty);
        QVERIFY(!v);
        QVERIFY2(v.error().message.find("no FP32 peak") != std::string::npos, v.error().message.c_str());
    }

    void findsTheDatasheetByName()
    {
        const DeviceProfile h100 = sheet("nvidia-h100", 67000, 3350), h200 = sheet("nvidia-h200", 67000, 4800),
                            rtx = sheet("nvidia-rtx4090", 82600, 1008);
        const std::vector<const DeviceProfile*> sheets = {&h100, &h200, &rtx};
        QCOMPARE(datasheetFor(calibratedH100(), sheets), &h100);
        DeviceProfile geforce = calibratedH100();
        geforce.description = "NVIDIA GeForce RTX 4090";
        QCOMPARE(datasheetFor(geforce, sheets), &rtx);
        DeviceProfile both = calibratedH100();
        both.description = "H100 or H200?";
        QCOMPARE(datasheetFor(both, sheets), nullptr);
        DeviceProfile none = calibratedH100();
        none.description = "some GPU";
        QCOMPARE(datasheetFor(none, sheets), nullptr);
    }
};

QTEST_GUILESS_MAIN(TestDeviceTransfer)
#include "test_device_transfer.moc"
