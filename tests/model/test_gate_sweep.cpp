// SPDX-License-Identifier: MIT
// Fusion-gate and Welch-peaks strategy sweeps: each point equals the single evaluation it sweeps, and the
// spec's outcomes under rlx-linux hold along the sweep.
#include "analysis/fuse_what_if.h"
#include "analysis/gate_sweep.h"
#include "analysis/rlx_profiles.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace costscope;

namespace {

const std::vector<std::int64_t> kBatches = {1, 32, 256, 512, 1024, 2048, 4096, 8192};

std::size_t indexOf(std::int64_t batch)
{
    return static_cast<std::size_t>(std::find(kBatches.begin(), kBatches.end(), batch) - kBatches.begin());
}

Shape batchBy(std::int64_t cols)
{
    Shape s = Shape::of({0, cols});
    s.dims[0] = Dim::named("batch");
    return s;
}

// x[batch,64] → MatMul w → Add bias → Relu, the output.
Graph mlp()
{
    Graph g;
    auto add = [&](OpKind k, std::vector<NodeId> in, Shape s, const char* sub = nullptr) {
        Node n;
        n.id = static_cast<NodeId>(g.nodes.size());
        Attrs a;
        if (sub)
            a.set("op", std::string(sub));
        n.op = Op::make(k, a);
        n.inputs = std::move(in);
        n.shape = std::move(s);
        g.nodes.push_back(std::move(n));
        return g.nodes.back().id;
    };
    const NodeId x = add(OpKind::Input, {}, batchBy(64));
    const NodeId w = add(OpKind::Param, {}, Shape::of({64, 64}));
    const NodeId bias = add(OpKind::Param, {}, Shape::of({64}));
    const NodeId mm = add(OpKind::MatMul, {x, w}, batchBy(64));
    const NodeId sum = add(OpKind::Binary, {mm, bias}, batchBy(64), "Add");
    g.outputs = {add(OpKind::Activation, {sum}, batchBy(64), "Relu")};
    return g;
}

} // namespace

class TestGateSweep : public QObject {
    Q_OBJECT
private slots:
    void welchGatesEqualSingleGates()
    {
        const auto set = rlxProfileSet("rlx-linux");
        const std::vector<GateCurve> curves = welchGateSweep(set, kBatches, 256, 16);
        QCOMPARE(curves.size(), fusionTargets().size());
        QCOMPARE(welchGateDevices().size(), fusionTargets().size());
        for (std::size_t t = 0; t < curves.size(); ++t) {
            const GateCurve& c = curves[t];
            QCOMPARE(c.target, fusionTargets()[t]);
            QCOMPARE(fusionTargetFor(welchGateDevices()[t]), std::optional<FusionTarget>(c.target));
            QCOMPARE(c.label, std::string(fusionTargetName(c.target)));
            QCOMPARE(c.scoreNs.size(), kBatches.size());
            QCOMPARE(c.fuse.size(), kBatches.size());
            for (std::size_t i = 0; i < kBatches.size(); ++i) {
                const WelchGate g = welchGate(set, welchGateDevices()[t], kBatches[i], 256, 16);
                QCOMPARE(c.scoreNs[i], g.scoreNs);
                QCOMPARE(bool(c.fuse[i]), g.shouldFuse);
                QCOMPARE(c.minGainNs, g.minGainNs);
            }
        }
    }

    // cost-model.md §4: Metal 256 no, 1024/4096/8192 yes; Gpu 256/1024 no, 4096/8192 yes; Cuda 4096/8192 yes.
    void welchGatesFollowTheSpec()
    {
        const std::vector<GateCurve> curves = welchGateSweep(rlxProfileSet("rlx-linux"), kBatches);
        auto fuses = [&](FusionTarget t, std::int64_t b) {
            for (const GateCurve& c : curves)
                if (c.target == t)
                    return bool(c.fuse[indexOf(b)]);
            return false;
        };
        QVERIFY(!fuses(FusionTarget::Metal, 256));
        for (std::int64_t b : {1024, 4096, 8192})
            QVERIFY(fuses(FusionTarget::Metal, b));
        QVERIFY(!fuses(FusionTarget::Wgpu, 256));
        QVERIFY(!fuses(FusionTarget::Wgpu, 1024));
        QVERIFY(fuses(FusionTarget::Wgpu, 4096));
        QVERIFY(fuses(FusionTarget::Wgpu, 8192));
        QVERIFY(fuses(FusionTarget::Cuda, 4096));
        QVERIFY(fuses(FusionTarget::Cuda, 8192));
    }

    void strategiesEqualSingleCosts()
    {
        const auto set = rlxProfileSet("rlx-linux");
        const LearnedGates learned{true, 1, 8};
        for (Device d : {Device::Cpu, Device::Gpu, Device::Cuda, Device::Metal}) {
            const WelchStrategySweep s = welchStrategySweep(set, d, kBatches, 256, 16, learned);
            QCOMPARE(s.device, d);
            QCOMPARE(s.ns.size(), std::size_t(4));
            QCOMPARE(s.pick.size(), kBatches.size());
            for (std::size_t i = 0; i < kBatches.size(); ++i) {
                const WelchStrategyCosts c = welchStrategyCosts(set, d, kBatches[i], 256, 16, learned);
                const double want[] = {c.ultraNs, c.fastNs, c.rlxNs, c.learnedNs};
                for (std::size_t k = 0; k < 4; ++k)
                    QVERIFY(s.ns[k][i] == want[k] || (std::isinf(s.ns[k][i]) && std::isinf(want[k])));
                QCOMPARE(s.pick[i], c.pick);
            }
        }
    }

    // cost-model.md §4: ultra on Cpu at every batch; fast on Gpu at 256 and 1024; rlx on Gpu and Cuda at 8192.
    void strategyPicksFollowTheSpec()
    {
        const auto set = rlxProfileSet("rlx-linux");
        for (WelchStrategy p : welchStrategySweep(set, Device::Cpu, kBatches).pick)
            QCOMPARE(p, WelchStrategy::Ultra);
        const WelchStrategySweep gpu = welchStrategySweep(set, Device::Gpu, kBatches);
        QCOMPARE(gpu.pick[indexOf(256)], WelchStrategy::Fast);
        QCOMPARE(gpu.pick[indexOf(1024)], WelchStrategy::Fast);
        QCOMPARE(gpu.pick[indexOf(8192)], WelchStrategy::Rlx);
        QCOMPARE(welchStrategySweep(set, Device::Cuda, kBatches).pick[indexOf(8192)], WelchStrategy::Rlx);
        QVERIFY(std::isinf(gpu.ns[0][indexOf(256)])); // ultra is not open to a GPU past batch 128
    }

    void fuseGatesEqualSingleWhatIfs()
    {
        const Graph g = mlp();
        const std::vector<NodeId> nodes = {3, 4, 5};
        const Bindings base{{"unused", 7}};
        auto curves = fuseGateSweep(g, nodes, "batch", kBatches, base);
        QVERIFY2(curves.ok(), curves.ok() ? "" : curves.error().message.c_str());
        QCOMPARE(curves->size(), fusionTargets().size());
        bool someFuse = false;
        for (std::size_t i = 0; i < kBatches.size(); ++i) {
            Bindings b = base;
            b["batch"] = kBatches[i];
            auto w = fuseWhatIf(g, nodes, b);
            QVERIFY(w.ok());
            for (std::size_t t = 0; t < curves->size(); ++t) {
                const GateCurve& c = (*curves)[t];
                QCOMPARE(c.target, w->verdicts[t].target);
                QCOMPARE(c.scoreNs[i], w->verdicts[t].scoreNs);
                QCOMPARE(bool(c.fuse[i]), w->verdicts[t].shouldFuse);
                QCOMPARE(c.minGainNs, w->verdicts[t].minGainNs);
                someFuse = someFuse || c.fuse[i];
            }
        }
        QVERIFY(someFuse);
        // The score grows with the batch: the traffic saved grows.
        const GateCurve& cuda = (*curves)[2];
        QCOMPARE(cuda.target, FusionTarget::Cuda);
        QVERIFY(cuda.scoreNs.back() > cuda.scoreNs.front());
    }

    void fuseGateErrors()
    {
        const Graph g = mlp();
        auto unknown = fuseGateSweep(g, {3, 99}, "batch", kBatches);
        QVERIFY(!unknown.ok());
        auto direct = fuseWhatIf(g, {3, 99}, {{"batch", 1}});
        QVERIFY(!direct.ok());
        QCOMPARE(unknown.error().message, direct.error().message);
        QVERIFY(!fuseGateSweep(g, {}, "batch", kBatches).ok());
    }
};

QTEST_GUILESS_MAIN(TestGateSweep)
#include "test_gate_sweep.moc"
