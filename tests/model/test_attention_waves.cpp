// SPDX-License-Identifier: MIT
// Attention priced in waves of query rows (issue 20, Vulkan): a kernel that runs one invocation per (batch, head,
// query) row, each walking keys × head dim, takes the row's loop times the waves of rows, flat in batch until the
// GPU is full and hundreds of times over the GEMM rate of its FLOPs. The waves model recovers such a kernel from the
// sampler's attention kernels, the learned model then predicts a held-out GPT (whose ratio to the GEMM rate is past
// the predictors' clamp), the GEMM rate stays where it explains the kernels, and the waves survive the profile JSON.
#include "analysis/costscope_cost_model.h"
#include "analysis/profile_io.h"
#include "holdout_test_run.h"
#include "train/attention_waves_fit.h"
#include "train/family_holdout.h"
#include "train/kernel_predictor_train.h"
#include "zoo/kernel_sampler.h"
#include "zoo/model_zoo.h"

#include <QTest>

#include <cmath>

using namespace costscope;

namespace {

// The synthetic per-row kernel: 256 rows a workgroup, 128 workgroups at once, 650 ns a key x dim step.
constexpr double kStepNs = 650, kFixedNs = 3000;
double perRowKernelNs(std::int64_t rows, std::int64_t loop)
{
    const double waves = std::ceil(std::ceil(double(rows) / 256.0) / 128.0);
    return kFixedNs + kStepNs * waves * double(loop);
}

// A GPU-like profile: attention's FLOPs at its GEMM rate take microseconds.
DeviceProfile gpuProfile()
{
    DeviceProfile p;
    p.name = "calibrated-test-gpu";
    p.device = Device::Vulkan;
    p.sgemmGflops = 30000;
    p.memoryBw = 2000;
    p.dispatchNs = 4000;
    p.roundtripNs = 20000;
    return p;
}

// One measured run: attention nodes take `attentionNs(rows, loop, gemmRateNs)`, every other kernel its analytic
// time, and the whole graph their sum plus the round trip.
template <class AttentionNs>
EvalRun measuredRun(const std::string& family, const std::string& name, std::int64_t batch, Graph g,
                    const DeviceProfile& p, AttentionNs attentionNs)
{
    const CostscopeCostModel model;
    const GraphWork work = model.work(g, {});
    const GraphCost cost = model.price(g, work, p);
    EvalRun r{family, name, batch, {}};
    r.run.wholeNs = p.roundtripNs;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const NodeCost& c = cost.nodes[i];
        if (c.kernelNs() <= 0)
            continue;
        const OpWork& w = work.nodes[i];
        const double ns = g.nodes[i].op.kind == OpKind::Attention
                              ? attentionNs(w.gemmM, w.gemmK * w.gemmN, c.kernelNs())
                              : c.kernelNs();
        r.run.nodes.emplace_back(g.nodes[i].id, ns);
        r.run.wholeNs += ns;
    }
    r.run.graph = std::make_shared<const Graph>(std::move(g));
    return r;
}

template <class AttentionNs>
std::vector<EvalRun> samplerAttentionRuns(const DeviceProfile& p, AttentionNs attentionNs)
{
    std::vector<EvalRun> runs;
    int i = 0;
    for (SamplerGraph& s : kernelSamplerGraphs(50))
        if (s.kernelClass == "attention")
            runs.push_back(
                measuredRun(kSamplerFamily, "attention-" + std::to_string(i++), 0, std::move(s.graph), p, attentionNs));
    return runs;
}

const auto perRow = [](std::int64_t rows, std::int64_t loop, double) { return perRowKernelNs(rows, loop); };

} // namespace

class TestAttentionWaves : public QObject {
    Q_OBJECT
private slots:
    void aRowKernelIsRecoveredFromItsTimings()
    {
        std::vector<AttentionTiming> timings;
        for (std::int64_t rows : {64, 512, 4096, 16384, 65536})
            for (std::int64_t loop : {1024, 8192, 65536})
                timings.push_back({rows, loop, perRowKernelNs(rows, loop)});
        const TileWaves w = fitAttentionRowWaves(timings);
        QVERIFY(w.valid());
        // Shapes it never saw, within a wave and past three waves.
        for (const auto& [rows, loop] : {std::pair<std::int64_t, std::int64_t>{3000, 40000}, {100000, 2048}}) {
            const double error = w.ns(rows, loop, 1) / perRowKernelNs(rows, loop) - 1;
            QVERIFY2(std::fabs(error) < 0.03, qPrintable(QString("%1 rows: %2").arg(rows).arg(error)));
        }
        QVERIFY(!fitAttentionRowWaves({timings[0], timings[1]}).valid()); // too few timings
    }

    void theSamplerPricesAttentionInWaves()
    {
        const DeviceProfile p = gpuProfile();
        const AttentionWavesFit fit = fitAttentionWaves(samplerAttentionRuns(p, perRow), p, 0);
        QVERIFY(fit.kernels > 50);
        QVERIFY2(fit.waves.valid(), fit.note.c_str());
        QVERIFY2(fit.wavesError < 0.05 && fit.gemmRateError > 0.5, fit.note.c_str());
        QVERIFY2(fit.note.find("attention priced in waves") == 0, fit.note.c_str());
        // What calibrate stores: the waves beside the predictors, said in its figures, kept in the profile JSON.
        std::vector<std::string> notes;
        PredictorTrainOptions o;
        o.threads = 1;
        auto calibrated = withTrainedPredictors(p, samplerAttentionRuns(p, perRow), o, &notes);
        QVERIFY2(calibrated.ok(), calibrated.ok() ? "" : calibrated.error().message.c_str());
        QVERIFY(calibrated->attentionWaves.valid() && calibrated->kernelPredictors);
        QVERIFY(!notes.empty() && notes.front().find("attention priced in waves") == 0);
        QVERIFY(profileToJsonText(*calibrated).find("\"attention_waves\"") != std::string::npos);
        // Scored families are never fitted on: a GPT run alone leaves nothing to fit.
        std::vector<EvalRun> gpt{measuredRun("gpt", "gpt", 1, modelZoo().front().build(1), p, perRow)};
        QCOMPARE(fitAttentionWaves(gpt, p, 0).kernels, 0);
    }

    void theGemmRateStaysWhereItExplainsTheKernels()
    {
        const DeviceProfile p = gpuProfile();
        const auto gemmRate = [](std::int64_t, std::int64_t, double gemmRateNs) { return 1.3 * gemmRateNs; };
        const AttentionWavesFit fit = fitAttentionWaves(samplerAttentionRuns(p, gemmRate), p, 0);
        QVERIFY(fit.kernels > 50);
        QVERIFY2(!fit.waves.valid(), fit.note.c_str());
        QVERIFY2(fit.note.find("kept at the GEMM rate") != std::string::npos, fit.note.c_str());
    }

    void aHeldOutGptIsPredictedPastTheClamp()
    {
        // The sampler's attention and the MLPs train; the GPTs are held out. Their attention is hundreds of times
        // its GEMM-rate time, past what a learned ratio may reach (KernelPredictor::kMaxRatio): without the waves
        // model they came out several times under.
        const DeviceProfile p = gpuProfile();
        std::vector<EvalRun> runs = samplerAttentionRuns(p, perRow);
        double worstRatio = 0;
        for (const ZooGraph& z : modelZoo())
            if (z.family == "gpt" || z.family == "mlp")
                for (std::int64_t b : {1, 8})
                    runs.push_back(measuredRun(z.family, z.name, b, z.build(b), p,
                                               [&](std::int64_t rows, std::int64_t loop, double gemmRateNs) {
                                                   const double ns = perRowKernelNs(rows, loop);
                                                   worstRatio = std::max(worstRatio, ns / gemmRateNs);
                                                   return ns;
                                               }));
        QVERIFY2(worstRatio > 4 * KernelPredictor::kMaxRatio, qPrintable(QString::number(worstRatio)));
        auto report = test::evaluateHeldOut(runs, p);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().message.c_str());
        bool noted = false;
        for (const std::string& n : report->notes)
            noted |= n.find("attention priced in waves") == 0;
        QVERIFY(noted);
        int gpt = 0;
        for (const EvalPrediction& e : report->predictions)
            if (e.model == "costscope learned" && e.family == "gpt") {
                ++gpt;
                QVERIFY2(std::fabs(e.error()) < 0.10,
                         qPrintable(QString::fromStdString(e.graph) + QString(" b%1: %2").arg(e.batch).arg(e.error())));
            }
        QVERIFY(gpt >= 8);
    }

    void wavesPriceAttentionAndRoundTripThroughTheProfile()
    {
        DeviceProfile p = gpuProfile();
        p.attentionWaves = {256, 1, 1, 128, kStepNs, kFixedNs};
        auto back = profileFromJsonText(profileToJsonText(p), "attention.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->attentionWaves.tileM, std::int64_t(256));
        QCOMPARE(back->attentionWaves.concurrentTiles, 128.0);
        QCOMPARE(back->attentionWaves.stepNs, kStepNs);
        // Flat in batch while the rows fit in one wave (the first GPT: 4 heads x 64 queries, 256 rows a sample).
        const ZooGraph& z = modelZoo().front();
        auto attentionNs = [&](std::int64_t batch, const DeviceProfile& profile) {
            const Graph g = z.build(batch);
            const GraphCost c = CostscopeCostModel().estimate(g, profile);
            for (std::size_t i = 0; i < g.nodes.size(); ++i)
                if (g.nodes[i].op.kind == OpKind::Attention)
                    return c.nodes[i].kernelNs();
            return 0.0;
        };
        const double one = attentionNs(1, *back);
        QVERIFY(one > 0);
        QVERIFY(std::fabs(attentionNs(2, *back) / one - 1) < 0.01);
        QVERIFY(attentionNs(1, gpuProfile()) < one / 50); // what the GEMM rate said
        // A malformed entry names its key.
        auto bad = profileFromJsonText(R"({"name":"a","device":"Vulkan","attention_waves":{"tile_m":-1}})", "bad.json");
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.find("attention_waves.tile_m") != std::string::npos, bad.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAttentionWaves)
#include "test_attention_waves.moc"
