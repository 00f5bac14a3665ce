// SPDX-License-Identifier: MIT
// The kernel sampler's plan (evaluation/zoo_runs.h) takes the classes in rotation, so that a calibration whose
// predictor budget runs out after a few graphs (a quick one on a busy machine) has sampled every class.
#include "analysis/costscope_cost_model.h"
#include "analysis/reuse_distance.h"
#include "evaluation/zoo_runs.h"
#include "ir/validate.h"
#include "zoo/kernel_sampler.h"

#include <QTest>

#include <map>
#include <set>
#include <string>

using namespace costscope;

class TestSamplerPlan : public QObject {
    Q_OBJECT
private slots:
    // Kernels are sampled with their inputs warm in L2 and cold (analysis/reuse_distance.h): batch-1 GEMMs, whose
    // time is reading their weights, both under 16 MiB of reuse distance (small models keep their weights in an
    // H100's 50 MB L2) and over 48 MiB; every class has warm graphs, each touching at most 24 MiB a pass.
    void configurationsAreSampledWarmAndCold()
    {
        double warmestGemv = 1e300, coldestGemv = 0;
        std::set<std::string> classes, warmClasses;
        for (const SamplerGraph& s : kernelSamplerGraphs(50.0)) {
            classes.insert(s.kernelClass);
            const GraphWork w = CostscopeCostModel().work(s.graph, {});
            const std::vector<double> reuse = inputReuseBytes(s.graph, w.nodes, {});
            const bool warm = s.graph.name.ends_with("-warm");
            if (warm) {
                warmClasses.insert(s.kernelClass);
                double pass = 0;
                for (const OpWork& n : w.nodes)
                    pass += n.free ? 0.0 : double(n.bytes);
                QVERIFY2(pass <= 24.0 * (1 << 20), s.graph.name.c_str());
            }
            for (std::size_t i = 0; i < s.graph.nodes.size(); ++i) {
                const Node& n = s.graph.nodes[i];
                if (n.op.kind != OpKind::MatMul && n.op.kind != OpKind::FusedMatMulBiasAct)
                    continue;
                const Node& x = s.graph.nodes[*s.graph.indexOf(n.inputs[0])];
                if (x.shape.rank() == 2 && x.shape.dims[0].value == 1) {
                    warmestGemv = std::min(warmestGemv, reuse[i]);
                    coldestGemv = std::max(coldestGemv, reuse[i]);
                }
            }
        }
        QCOMPARE(warmClasses, classes);
        QVERIFY2(warmestGemv < 16.0 * (1 << 20), std::to_string(warmestGemv).c_str());
        QVERIFY2(coldestGemv > 48.0 * (1 << 20), std::to_string(coldestGemv).c_str());
    }
    // Which configurations go warm must not follow a grid's innermost loop of two values: grouped convolutions
    // (ShuffleNet's, not depthwise) are sampled warm and cold at both kernel sizes, attention both with and without a
    // mask (plain alternation put every grouped 1x1 layer and every unmasked attention cold).
    void twoValuedLoopsAreSampledWarmAndCold()
    {
        std::set<std::pair<std::string, bool>> seen; // (what, warm)
        for (const SamplerGraph& s : kernelSamplerGraphs(50.0))
            for (const Node& n : s.graph.nodes) {
                const bool warm = s.graph.name.ends_with("-warm");
                if (n.op.kind == OpKind::Attention)
                    seen.insert({"attention mask " + n.op.attrs.stringOr("mask_kind", "None"), warm});
                const std::int64_t groups = n.op.attrs.intOr("groups", 1);
                if (n.op.kind != OpKind::Conv || groups < 2 || groups > 16 || groups == n.shape.dims[1].value)
                    continue;
                std::int64_t area = 1;
                for (std::int64_t k : n.op.attrs.intsOr("kernel_size", {}))
                    area *= k;
                seen.insert({"grouped conv of area " + std::to_string(area), warm});
            }
        for (const std::string what :
             {"grouped conv of area 1", "grouped conv of area 9", "attention mask None", "attention mask Causal"}) {
            QVERIFY2(seen.contains({what, true}), what.c_str());
            QVERIFY2(seen.contains({what, false}), what.c_str());
        }
    }

    // Small-batch layers of 16 MiB weights are sampled with their weights re-read 16 MiB after their last touch (a
    // batch-8 MLP of such layers), between the warm graphs' distances and the cold ones' (over 32 MiB).
    void largeLayersAreSampledBetweenWarmAndCold()
    {
        std::set<std::int64_t> betweenRows, coldRows;
        for (const SamplerGraph& s : kernelSamplerGraphs(50.0)) {
            const GraphWork w = CostscopeCostModel().work(s.graph, {});
            const std::vector<double> reuse = inputReuseBytes(s.graph, w.nodes, {});
            for (std::size_t i = 0; i < s.graph.nodes.size(); ++i) {
                const Node& n = s.graph.nodes[i];
                if (n.op.kind != OpKind::MatMul && n.op.kind != OpKind::FusedMatMulBiasAct)
                    continue;
                const Node& wt = s.graph.nodes[*s.graph.indexOf(n.inputs[1])];
                const auto elements = wt.shape.elements();
                const std::int64_t m = n.shape.dims[0].value;
                if (wt.op.kind != OpKind::Param || !elements || *elements * 4 < (16 << 20) || m > 32)
                    continue;
                const double mib = reuse[i] / (1 << 20);
                if (mib >= 12 && mib <= 24)
                    betweenRows.insert(m);
                else if (mib > 32)
                    coldRows.insert(m);
            }
        }
        for (const std::int64_t m : {1, 8, 16}) {
            QVERIFY2(betweenRows.contains(m), std::to_string(m).c_str());
            QVERIFY2(coldRows.contains(m), std::to_string(m).c_str());
        }
    }

    void classesComeInRotation()
    {
        for (const double maxGflop : {0.05, 50.0}) {
            std::map<std::string, std::string> classOf; // graph name -> kernel class
            std::set<std::string> classes;
            std::size_t graphs = 0;
            for (const SamplerGraph& s : kernelSamplerGraphs(maxGflop)) {
                classOf[s.graph.name] = s.kernelClass;
                classes.insert(s.kernelClass);
                ++graphs;
            }
            QVERIFY(classes.size() >= 6);
            const std::vector<PlannedGraph> plan = samplerPlan(maxGflop);
            QCOMPARE(plan.size(), graphs); // every graph, once
            std::set<std::string> first, names;
            for (std::size_t i = 0; i < classes.size(); ++i)
                first.insert(classOf.at(plan[i].name));
            QCOMPARE(first, classes); // the first graphs are one of each class
            for (const PlannedGraph& p : plan) {
                QCOMPARE(p.family, std::string(kSamplerFamily));
                QVERIFY(names.insert(p.name).second);
            }
        }
    }

    // What the predictors learn from: every GEMM width is sampled plain and fused, the fused ones through every
    // epilogue; ONNX's Gemm with a transposed weight, wide convolutions, batched activation products, batch norm and
    // ONNX Sum are there; every graph infers its shapes.
    void configurationsCoverWhatModelsRun()
    {
        std::map<std::pair<std::int64_t, std::int64_t>, std::set<std::string>> gemmKinds; // (k, n) -> op kinds
        std::set<std::string> epilogues, ops;
        int batchedProducts = 0;
        std::set<std::int64_t> transposedGemmRows;                 // ONNX Gemm with its weight stored [n, k], by m
        std::set<std::pair<std::int64_t, std::int64_t>> wideConvs; // (kernel area, groups) of layers of 384+ channels
        for (const SamplerGraph& s : kernelSamplerGraphs(50.0)) {
            QVERIFY2(!hasErrors(validateGraph(s.graph)), s.graph.name.c_str());
            for (const Node& n : s.graph.nodes) {
                ops.insert(n.op.label());
                if (n.op.kind == OpKind::Conv && n.shape.dims[1].value >= 384) {
                    std::int64_t area = 1;
                    for (std::int64_t k : n.op.attrs.intsOr("kernel_size", {}))
                        area *= k;
                    wideConvs.insert({area, n.op.attrs.intOr("groups", 1)});
                }
                if (n.op.kind == OpKind::Gemm && n.op.attrs.intOr("trans_b", 0) != 0 && n.inputs.size() == 3)
                    transposedGemmRows.insert(n.shape.dims[0].value);
                if (n.op.kind != OpKind::MatMul && n.op.kind != OpKind::FusedMatMulBiasAct)
                    continue;
                const Node& w = s.graph.nodes[*s.graph.indexOf(n.inputs[1])];
                if (w.op.kind != OpKind::Param) {
                    ++batchedProducts;
                    continue;
                }
                gemmKinds[{w.shape.dims[0].value, w.shape.dims[1].value}].insert(n.op.kind == OpKind::MatMul ? "plain"
                                                                                                             : "fused");
                if (n.op.kind == OpKind::FusedMatMulBiasAct)
                    epilogues.insert(n.op.attrs.stringOr("activation", "none"));
            }
        }
        QVERIFY(gemmKinds.size() >= 26);
        for (const auto& kn : {std::pair<std::int64_t, std::int64_t>{2048, 512}, {512, 2048}, {1024, 256}, {512, 256}})
            QVERIFY(gemmKinds.contains(kn)); // the narrow grid, where a GEMV's kernel turns on which side is wider
        for (const auto& kn : {std::pair<std::int64_t, std::int64_t>{16, 32}, {32, 16}, {32, 32}})
            QVERIFY(gemmKinds.contains(kn)); // as narrow as RLX's example bundles
        QCOMPARE(transposedGemmRows, (std::set<std::int64_t>{1, 8, 64, 512}));
        // The exported CNNs' wide layers: dense 1x1 and 3x3, and AlexNet's 3x3 in two groups.
        for (const auto& areaGroups : {std::pair<std::int64_t, std::int64_t>{1, 1}, {9, 1}, {9, 2}})
            QVERIFY(wideConvs.contains(areaGroups));
        for (const auto& [kn, kinds] : gemmKinds)
            QVERIFY2(kinds.size() == 2, (std::to_string(kn.first) + "x" + std::to_string(kn.second)).c_str());
        QCOMPARE(epilogues, (std::set<std::string>{"none", "Gelu", "GeluApprox", "Relu"}));
        QVERIFY(batchedProducts >= 24);
        QVERIFY(ops.contains("BatchNorm"));
        QVERIFY(ops.contains("Sum"));
        QVERIFY(ops.contains("ConstantOfShape"));
    }
};

QTEST_GUILESS_MAIN(TestSamplerPlan)
#include "test_sampler_plan.moc"
