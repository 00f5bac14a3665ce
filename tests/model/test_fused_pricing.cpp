// SPDX-License-Identifier: MIT
// A fused node (Fuse Selection) is priced as the kernels it stands for, by RLX parity and by the Costscope model,
// with the IO profile the fusion what-if (`gate fuse`, the sweep's "Fuse selection") predicts.
#include "analysis/costscope_cost_model.h"
#include "analysis/fuse_what_if.h"
#include "analysis/fused_kernel.h"
#include "analysis/io_profile.h"
#include "analysis/profile_io.h"
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"
#include "edit/fuse_nodes.h"
#include "formats/graph_file.h"
#include "test_paths.h"

#include <QtTest>

using namespace costscope;

namespace {

Graph load(const char* path)
{
    auto loaded = loadGraphFile(test::sourcePath(QString::fromLatin1(path)).toStdString());
    if (!loaded)
        qFatal("%s: %s", path, loaded.error().message.c_str());
    return loaded->graph;
}

const NodeCost& costOf(const GraphCost& c, const Graph& g, NodeId id)
{
    return c.nodes[*g.indexOf(id)];
}

DeviceProfile preset(const char* name)
{
    auto p = loadProfileFile(test::sourcePath(QStringLiteral("resources/profiles/%1.json").arg(QLatin1String(name)))
                                 .toStdString());
    if (!p)
        qFatal("%s: %s", name, p.error().message.c_str());
    return *p;
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-9;
}

// fc1 MatMul, bias Add, Gelu, fc2 MatMul of block 0's MLP: two GEMMs with an epilogue between them.
const std::vector<NodeId> kMlp{19, 20, 21, 23};
const Bindings kBatch{{"batch", 8}};

} // namespace

class TestFusedPricing : public QObject {
    Q_OBJECT
private slots:
    void kernelSaysWhatItStandsFor()
    {
        const Graph g = load("resources/examples/tiny_transformer.hir.json");
        auto fused = edit::fuseNodes(g, kMlp);
        QVERIFY(fused);
        auto kernel = fusedKernel(fused->find(23)->op);
        QVERIFY(kernel);
        QCOMPARE(kernel->opClass, OpClass::MatMul);
        QCOMPARE(kernel->form, std::string("2 GEMMs with epilogue"));
        QVERIFY(!kernel->hostSync);

        auto chain = fusedKernel(edit::fuseNodes(g, {20, 21})->find(21)->op); // bias Add + Gelu
        QVERIFY(chain);
        QCOMPARE(chain->opClass, OpClass::ElementWise);
        QCOMPARE(chain->form, std::string("element-wise chain"));
        QVERIFY(!fusedKernel(g.find(21)->op));
    }

    // RLX parity: a GEMM with epilogue costs its GEMMs (as RLX prices FusedMatMulBiasAct) and one dispatch; the
    // whole graph's IO terms are the what-if's "after" profile.
    void rlxPricesTheGemmsItHolds()
    {
        const Graph g = load("resources/examples/tiny_transformer.hir.json");
        auto fused = edit::fuseNodes(g, kMlp);
        QVERIFY(fused);
        const auto whatIf = fuseWhatIf(g, kMlp, kBatch);
        QVERIFY(whatIf);
        QCOMPARE(ioProfile(*fused, kBatch), whatIf->after);
        const RlxCostModel rlx;
        for (const DeviceProfile& p : rlxProfileSet("rlx-linux")) {
            if (p.rlxFallback)
                continue;
            const NodeCost f = rlx.nodeCost(*fused, *fused->find(23), p, kBatch);
            const NodeCost fc1 = rlx.nodeCost(g, *g.find(19), p, kBatch);
            const NodeCost fc2 = rlx.nodeCost(g, *g.find(23), p, kBatch);
            QVERIFY(fc1.computeNs > 0 && fc2.computeNs > 0);
            QVERIFY2(close(f.computeNs, fc1.computeNs + fc2.computeNs), qPrintable(QString::fromStdString(p.name)));
            QCOMPARE(f.flops, fc1.flops + fc2.flops);
            QCOMPARE(f.memoryNs, 0.0);
            QCOMPARE(f.dispatchNs, p.dispatchNs);
            QVERIFY(!f.skipped);

            double members = 0;
            for (NodeId id : kMlp)
                members += rlx.nodeCost(g, *g.find(id), p, kBatch).totalNs;
            const double expected = rlxEstimateWithIo(g, p, whatIf->after, kBatch) - members + f.totalNs;
            QVERIFY2(close(rlxEstimate(*fused, p, kBatch), expected), qPrintable(QString::fromStdString(p.name)));
            QVERIFY(rlxEstimate(*fused, p, kBatch) < rlxEstimate(g, p, kBatch));
        }
    }

    // Without a GEMM the set is one element-wise op writing the exit.
    void rlxPricesAnElementwiseChainAsOneOp()
    {
        const Graph g = load("resources/examples/tiny_transformer.hir.json");
        auto fused = edit::fuseNodes(g, {20, 21});
        QVERIFY(fused);
        const RlxCostModel rlx;
        const DeviceProfile p = *findProfile(rlxProfileSet("rlx-linux"), Device::Cuda);
        const NodeCost f = rlx.nodeCost(*fused, *fused->find(21), p, kBatch);
        const NodeCost gelu = rlx.nodeCost(g, *g.find(21), p, kBatch);
        QVERIFY(gelu.memoryNs > 0);
        QCOMPARE(f.memoryNs, gelu.memoryNs);
        QCOMPARE(f.totalNs, gelu.totalNs);
    }

    // The Costscope model: each member's compute at its own rate (the GEMMs at the GEMM rate, not at a tenth of
    // peak as an unknown op), over the boundary bytes, corrected as the kernel's class.
    void costscopePricesEachMemberAtItsRate()
    {
        const Graph g = load("resources/examples/tiny_transformer.hir.json");
        auto fused = edit::fuseNodes(g, kMlp);
        QVERIFY(fused);
        const CostscopeCostModel model;
        for (const char* name : {"nvidia-h200", "generic-x86-16core", "apple-m3-max"}) {
            DeviceProfile p = preset(name);
            const GraphCost before = model.estimate(g, p, kBatch);
            const GraphCost after = model.estimate(*fused, p, kBatch);
            double compute = 0, total = 0;
            for (NodeId id : kMlp) {
                compute += costOf(before, g, id).computeNs;
                total += costOf(before, g, id).totalNs;
            }
            const NodeCost& f = costOf(after, *fused, 23);
            QVERIFY2(close(f.computeNs, compute), name);
            QVERIFY2(f.totalNs <= total, name);
            QVERIFY2(after.totalNs <= before.totalNs, name);
            QVERIFY(QString::fromStdString(f.note).startsWith(QStringLiteral("fused 2 GEMMs with epilogue")));

            p.corrections["matmul"] = 2.0;
            const NodeCost corrected = costOf(model.estimate(*fused, p, kBatch), *fused, 23);
            QVERIFY2(close(corrected.totalNs, 2.0 * f.totalNs), name);
        }
    }

    // The example from the report: fusing a set with a MatMul in cnn.hir.json must not drop its FLOPs (RLX parity
    // fell below the unfused cost by more than the launches saved) nor raise the Costscope cost.
    void cnnHeadFusionKeepsItsFlops()
    {
        const Graph g = load("resources/examples/cnn.hir.json");
        std::vector<NodeId> set;
        for (const Node& n : g.nodes)
            if (n.op.kind == OpKind::MatMul)
                set.push_back(n.id);
        QVERIFY(!set.empty());
        const Node* matmul = g.find(set.front());
        for (const Node& n : g.nodes) // the MatMul and what it feeds that reads nothing else computed
            if (n.inputs.size() == 2 && std::count(n.inputs.begin(), n.inputs.end(), matmul->id) == 1
                && n.op.kind == OpKind::Binary)
                set.push_back(n.id);
        auto fused = edit::fuseNodes(g, set);
        QVERIFY2(fused, fused ? "" : fused.error().message.c_str());
        for (const DeviceProfile& p : rlxProfileSet("rlx-linux")) {
            if (p.rlxFallback)
                continue;
            const GraphCost before = RlxCostModel().estimate(g, p);
            const GraphCost after = RlxCostModel().estimate(*fused, p);
            const double flopsBefore = costOf(before, g, matmul->id).flops;
            QVERIFY(flopsBefore > 0);
            double flopsAfter = 0;
            for (const NodeCost& c : after.nodes)
                flopsAfter += c.flops;
            double flopsAll = 0;
            for (const NodeCost& c : before.nodes)
                flopsAll += c.flops;
            QCOMPARE(flopsAfter, flopsAll);
            QVERIFY(after.totalNs <= before.totalNs);
        }
    }
};

QTEST_GUILESS_MAIN(TestFusedPricing)
#include "test_fused_pricing.moc"
