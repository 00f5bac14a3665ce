// SPDX-License-Identifier: MIT
#include "analysis/device_policy.h"
#include "analysis/device_resolution.h"
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"

#include <QTest>

#include <cmath>

using namespace costscope;

namespace {
DeviceContext context(std::vector<Device> available)
{
    DeviceContext ctx;
    ctx.available = std::move(available);
    ctx.firstUnsupportedOp = [](Device d) -> std::optional<std::string> {
        if (d == Device::Cuda)
            return "Fft (node 3)";
        return std::nullopt;
    };
    return ctx;
}

// Estimates: Vulkan 10, Gpu 20, Cpu 30, Cuda 5 (never viable here), Metal has no model.
std::optional<double> estimate(Device d)
{
    switch (d) {
    case Device::Vulkan: return 10;
    case Device::Gpu: return 20;
    case Device::Cpu: return 30;
    case Device::Cuda: return 5;
    default: return std::nullopt;
    }
}

// x [1024, 1024] · w [1024, 1024]: one MatMul, the graph's output.
Graph bigMatmul()
{
    Graph g;
    for (NodeId id : {0, 1}) {
        Node n;
        n.id = id;
        n.op = Op::make(id == 0 ? OpKind::Input : OpKind::Param);
        n.shape = Shape::of({1024, 1024});
        g.add(std::move(n));
    }
    Node mm;
    mm.id = 2;
    mm.op = Op::make(OpKind::MatMul);
    mm.inputs = {0, 1};
    mm.shape = Shape::of({1024, 1024});
    g.add(std::move(mm));
    g.outputs = {2};
    return g;
}

// The RLX estimates of bigMatmul() under a profile set, tagged, as costscope-cli pick makes them.
DeviceEstimator setEstimator(const Graph& g, const std::vector<DeviceProfile>& set)
{
    return [&g, set](Device d) -> std::optional<DeviceEstimate> {
        const DeviceProfile* p = findProfile(set, d);
        if (!p)
            return std::nullopt;
        return DeviceEstimate(rlxEstimate(g, *p), p->calibration);
    };
}

const DeviceReportEntry& entry(const std::vector<DeviceReportEntry>& r, Device d)
{
    for (const auto& e : r)
        if (e.device == d)
            return e;
    qFatal("no entry");
}
} // namespace

class TestDevicePolicy : public QObject {
    Q_OBJECT
private slots:
    void namesAndPriority();
    void candidatesSortedByPreferThenPriority();
    void envPrefixes();
    void policyFromEnv();
    void pickStrategySpec();
    void pickBestAndFastest();
    void reportBlockers();
    void resolutionOrder();
    void chain();
    void benchmarkPickIsRememberedUntilPolicyChanges();
    void fallbackReportsEveryError();
    void pickRuleOfEachRlxVersion();
    void rlxLinuxPickDependsOnTheRlxVersion();
    void reportSaysWhyADeviceWasLeftOut();
};

void TestDevicePolicy::namesAndPriority()
{
    QCOMPARE(parseDevice("wgpu"), Device::Gpu);
    QCOMPARE(parseDevice("CUDA"), Device::Cuda);
    QCOMPARE(parseDevice("dx12"), Device::DirectX);
    QCOMPARE(parseDevice("DirectX"), Device::DirectX);
    QVERIFY(!parseDevice("tpu2"));
    for (Device d : devicePriority())
        QCOMPARE(parseDevice(deviceName(d)), d);
    QCOMPARE(priorityRank(Device::Tpu), 0);
    QCOMPARE(priorityRank(Device::Cuda), 1);
    QCOMPARE(priorityRank(Device::Gpu), 8);
    QCOMPARE(priorityRank(Device::Cpu), 13);
    QVERIFY(!isGpuClass(Device::Cpu));
    QVERIFY(isGpuClass(Device::Tpu) && isGpuClass(Device::Vulkan));
    QCOMPARE(estimableDevices().size(), 12u);
}

void TestDevicePolicy::candidatesSortedByPreferThenPriority()
{
    const std::vector<Device> all = {Device::Cpu, Device::Vulkan, Device::Gpu, Device::Cuda};
    QCOMPARE(sortCandidates(all, {}), (std::vector<Device>{Device::Cuda, Device::Gpu, Device::Vulkan, Device::Cpu}));
    DevicePolicy p;
    p.prefer = {Device::Cpu, Device::Vulkan};
    QCOMPARE(sortCandidates(all, p), (std::vector<Device>{Device::Cpu, Device::Vulkan, Device::Cuda, Device::Gpu}));
    p.deny = {Device::Cuda};
    p.allow = {Device::Cuda, Device::Gpu, Device::Vulkan};
    QCOMPARE(sortCandidates(all, p), (std::vector<Device>{Device::Vulkan, Device::Gpu}));
}

void TestDevicePolicy::envPrefixes()
{
    const Environment env = {{"RLX_DEVICE", "cuda"}, {"COSTSCOPE_DEVICE", "vulkan"}, {"RLX_DEVICES", "cpu"},
                             {"COSTSCOPE_DEVICES", "  "}};
    QCOMPARE(envSetting(env, "DEVICE"), std::optional<std::string>("vulkan")); // COSTSCOPE_ wins
    QCOMPARE(envSetting(env, "DEVICES"), std::optional<std::string>("cpu"));   // an empty value is unset
    QVERIFY(!envSetting(env, "DEVICE_CHAIN"));
}

void TestDevicePolicy::policyFromEnv()
{
    auto p = policyFromEnvironment({{"RLX_DEVICES", "cuda, gpu,cpu"},
                                    {"RLX_DENY_DEVICES", "gpu"},
                                    {"COSTSCOPE_PREFER_DEVICES", "cpu"},
                                    {"RLX_BENCHMARK_PICK", "3"}});
    QVERIFY(p.ok());
    QCOMPARE(p->allow, (std::vector<Device>{Device::Cuda, Device::Gpu, Device::Cpu}));
    QCOMPARE(p->deny, std::vector<Device>{Device::Gpu});
    QCOMPARE(p->prefer, std::vector<Device>{Device::Cpu});
    QCOMPARE(p->strategy, PickStrategy::Benchmark);
    QCOMPARE(p->benchmarkRuns, 3);
    auto zero = policyFromEnvironment({{"RLX_BENCHMARK_PICK", "0"}});
    QCOMPARE(zero->benchmarkRuns, 1); // max(runs, 1)
    QCOMPARE(policyFromEnvironment({})->strategy, PickStrategy::CostModel);
    auto bad = policyFromEnvironment({{"RLX_DENY_DEVICES", "cuda,quantum"}});
    QVERIFY(!bad.ok());
    QVERIFY(QString::fromStdString(bad.error().message).contains("quantum"));
    QVERIFY(QString::fromStdString(bad.error().message).contains("RLX_DENY_DEVICES"));
    QVERIFY(!policyFromEnvironment({{"RLX_BENCHMARK_PICK", "lots"}}).ok());
}

void TestDevicePolicy::pickStrategySpec()
{
    auto b = withPickStrategy({}, "benchmark:5");
    QCOMPARE(b->strategy, PickStrategy::Benchmark);
    QCOMPARE(b->benchmarkRuns, 5);
    QCOMPARE(withPickStrategy(*b, "cost")->strategy, PickStrategy::CostModel);
    QVERIFY(!withPickStrategy({}, "benchmark:0").ok());
    QVERIFY(!withPickStrategy({}, "fastest").ok());
}

void TestDevicePolicy::pickBestAndFastest()
{
    QCOMPARE(pickBestDevice({}), Device::Cpu);
    QCOMPARE(pickBestDevice({{Device::Gpu, std::numeric_limits<double>::infinity()}}), Device::Cpu);
    QCOMPARE(pickBestDevice({{Device::Gpu, 5}, {Device::Vulkan, 5}, {Device::Cuda, 7}}), Device::Gpu); // tie: first
    QCOMPARE(fastestDevice({Device::Gpu, Device::Vulkan, Device::Cpu}, estimate), Device::Vulkan);
    // One modelled candidate: that one, whatever its estimate.
    QCOMPARE(fastestDevice({Device::Metal, Device::Cpu}, estimate), Device::Cpu);
    // None modelled: the first candidate.
    QCOMPARE(fastestDevice({Device::Metal, Device::Tpu}, estimate), Device::Metal);
    QVERIFY(!fastestDevice({}, estimate));
}

void TestDevicePolicy::reportBlockers()
{
    const DeviceContext ctx = context({Device::Cpu, Device::Cuda, Device::Vulkan, Device::Gpu});
    DevicePolicy p;
    p.deny = {Device::Gpu, Device::Metal};
    p.allow = {Device::Cpu, Device::Cuda, Device::Gpu, Device::Metal};
    const auto report = deviceReport(ctx, p, estimate, Device::Cpu);
    QCOMPARE(report.size(), 12u);
    QCOMPARE(report.front().device, Device::Tpu); // priority order
    QCOMPARE(entry(report, Device::Metal).blocker, std::string("not available")); // before "denied by policy"
    QCOMPARE(entry(report, Device::Cuda).blocker, std::string("unsupported op: Fft (node 3)"));
    QVERIFY(entry(report, Device::Cuda).available && !entry(report, Device::Cuda).supportsGraph);
    QCOMPARE(entry(report, Device::Gpu).blocker, std::string("denied by policy"));
    QCOMPARE(entry(report, Device::Vulkan).blocker, std::string("not in allow-list"));
    QCOMPARE(entry(report, Device::Cpu).blocker, std::string());
    QVERIFY(entry(report, Device::Cpu).recommended && !entry(report, Device::Vulkan).recommended);
    QCOMPARE(entry(report, Device::Vulkan).estimateNs, std::optional<double>(10));
    QCOMPARE(viableDevices(ctx, p), std::vector<Device>{Device::Cpu});
}

void TestDevicePolicy::resolutionOrder()
{
    const DeviceContext ctx = context({Device::Cpu, Device::Cuda, Device::Vulkan, Device::Gpu});
    // No hint, no env: the cost-model winner among Gpu, Vulkan, Cpu (Cuda cannot run the graph).
    auto r = resolveDevice(std::nullopt, {}, ctx, {}, estimate);
    QCOMPARE(r->device, Device::Vulkan);
    QCOMPARE(r->reason, std::string("cost model"));
    // A viable hint wins.
    QCOMPARE(resolveDevice(Device::Cpu, {{"RLX_DEVICE", "gpu"}}, ctx, {}, estimate)->device, Device::Cpu);
    // A hint that is not viable gives way to RLX_DEVICE.
    r = resolveDevice(Device::Cuda, {{"RLX_DEVICE", "gpu"}}, ctx, {}, estimate);
    QCOMPARE(r->device, Device::Gpu);
    QCOMPARE(r->reason, std::string("RLX_DEVICE"));
    QCOMPARE(r->notes.size(), 1u);
    QVERIFY(QString::fromStdString(r->notes[0]).contains("unsupported op"));
    // RLX_DEVICE not viable either: the cost model.
    QCOMPARE(resolveDevice(std::nullopt, {{"RLX_DEVICE", "metal"}}, ctx, {}, estimate)->device, Device::Vulkan);
    // FORCE overrides all, viable or not.
    r = resolveDevice(Device::Cpu, {{"RLX_FORCE_DEVICE", "cuda"}}, ctx, {}, estimate);
    QCOMPARE(r->device, Device::Cuda);
    QVERIFY(!resolveDevice(std::nullopt, {{"RLX_FORCE_DEVICE", "warp"}}, ctx, {}, estimate).ok());
    // The policy narrows the cost-model choice.
    DevicePolicy p;
    p.deny = {Device::Vulkan};
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, p, estimate)->device, Device::Gpu);
    p.allow = {Device::Cuda};
    QVERIFY(!resolveDevice(std::nullopt, {}, ctx, p, estimate).ok()); // nothing viable
    // Benchmark policy without a runner falls back to the cost model and says so.
    DevicePolicy bench;
    bench.strategy = PickStrategy::Benchmark;
    r = resolveDevice(std::nullopt, {}, ctx, bench, estimate);
    QCOMPARE(r->device, Device::Vulkan);
    QCOMPARE(r->notes.size(), 1u);
}

void TestDevicePolicy::chain()
{
    const DeviceContext ctx = context({Device::Cpu, Device::Cuda, Device::Vulkan});
    auto r = resolveDevice(Device::Vulkan, {{"RLX_DEVICE_CHAIN", "cuda,gpu,cpu"}}, ctx, {}, estimate);
    QCOMPARE(r->device, Device::Cpu); // Cuda cannot run the graph, Gpu is not available
    auto fail = resolveDevice(std::nullopt, {{"RLX_DEVICE_CHAIN", "cuda,gpu"}}, ctx, {}, estimate);
    QVERIFY(!fail.ok());
    QCOMPARE(fail.error().message,
             std::string("no device of the chain Cuda, Gpu is viable; viable devices: Vulkan, Cpu"));
}

void TestDevicePolicy::benchmarkPickIsRememberedUntilPolicyChanges()
{
    int calls = 0;
    // Vulkan: 9, 1, 8 → median 8; Cpu: 5 always; Gpu fails to compile.
    std::map<Device, std::vector<double>> times = {{Device::Vulkan, {9, 1, 8}}, {Device::Cpu, {5, 5, 5}}};
    std::map<Device, int> index;
    BenchmarkRun run = [&](Device d) -> std::optional<double> {
        ++calls;
        if (!times.count(d))
            return std::nullopt;
        return times[d][index[d]++ % 3];
    };
    const auto ranked = BenchmarkPicker::rank({Device::Gpu, Device::Vulkan, Device::Cpu}, 3, run);
    QCOMPARE(ranked.size(), 2u);
    QCOMPARE(ranked[0], (std::pair<Device, double>{Device::Cpu, 5}));
    QCOMPARE(ranked[1], (std::pair<Device, double>{Device::Vulkan, 8}));
    BenchmarkPicker picker;
    DevicePolicy p;
    p.strategy = PickStrategy::Benchmark;
    p.benchmarkRuns = 3;
    calls = 0;
    QCOMPARE(picker.pick(p, {Device::Vulkan, Device::Cpu}, run), Device::Cpu);
    QCOMPARE(calls, 6);
    QCOMPARE(picker.pick(p, {Device::Vulkan, Device::Cpu}, run), Device::Cpu);
    QCOMPARE(calls, 6); // remembered
    p.benchmarkRuns = 1;
    picker.pick(p, {Device::Vulkan, Device::Cpu}, run);
    QCOMPARE(calls, 8); // the policy changed: measured again
    const DeviceContext ctx = context({Device::Cpu, Device::Vulkan});
    auto r = resolveDevice(std::nullopt, {}, ctx, p, estimate, &picker, run);
    QCOMPARE(r->reason, std::string("benchmark"));
}

void TestDevicePolicy::fallbackReportsEveryError()
{
    std::vector<std::string> errors;
    auto ok = runWithFallback(
        {Device::Cuda, Device::Vulkan, Device::Cpu},
        [](Device d) -> std::optional<std::string> {
            if (d == Device::Cpu)
                return std::nullopt;
            return std::string(deviceName(d)) + " failed";
        },
        [&](Device, const std::string& e) { errors.push_back(e); });
    QCOMPARE(ok, Device::Cpu);
    QCOMPARE(errors, (std::vector<std::string>{"Cuda failed", "Vulkan failed"}));
    errors.clear();
    QVERIFY(!runWithFallback({Device::Cuda}, [](Device) { return std::optional<std::string>("boom"); },
                             [&](Device, const std::string& e) { errors.push_back(e); }));
    QCOMPARE(errors.size(), 1u);
}

void TestDevicePolicy::pickRuleOfEachRlxVersion()
{
    QCOMPARE(parseRlxVersion("0.2.14", "x").value(), RlxVersion::V0_2_14);
    QCOMPARE(parseRlxVersion("v0.2.16", "x").value(), RlxVersion::V0_2_16);
    auto bad = parseRlxVersion("0.2.15", "--rlx-version");
    QVERIFY(!bad.ok());
    QVERIFY(QString::fromStdString(bad.error().message).startsWith("--rlx-version: unknown RLX version '0.2.15'"));
    QCOMPARE(kDefaultRlxVersion, RlxVersion::V0_2_16);

    using C = Calibration;
    const DeviceEstimate cuda(5, C::Uncalibrated), vulkan(7, C::Measured), cpu(9, C::ArchDefault);
    // 0.2.14: the lowest estimate of all. 0.2.16: Cuda is Uncalibrated, so the lowest of the others.
    QCOMPARE(pickBestDevice({{Device::Cuda, cuda}, {Device::Vulkan, vulkan}, {Device::Cpu, cpu}}, RlxVersion::V0_2_14),
             Device::Cuda);
    QCOMPARE(pickBestDevice({{Device::Cuda, cuda}, {Device::Vulkan, vulkan}, {Device::Cpu, cpu}}), Device::Vulkan);
    QCOMPARE(pickBestDevice({{Device::Cuda, cuda}, {Device::Cpu, cpu}}), Device::Cpu);
    // Every candidate Uncalibrated: the lowest estimate of all, as before.
    QCOMPARE(pickBestDevice({{Device::Gpu, DeviceEstimate(8, C::Uncalibrated)}, {Device::Cuda, cuda}}), Device::Cuda);
    // The tie rule holds among the ranked ones: Vulkan and Gpu at 7, Gpu first.
    QCOMPARE(pickBestDevice({{Device::Cuda, cuda}, {Device::Gpu, DeviceEstimate(7, C::ArchDefault)},
                             {Device::Vulkan, vulkan}}),
             Device::Gpu);
    QCOMPARE(rankedByPick({C::Uncalibrated, C::Measured}, RlxVersion::V0_2_16), (std::vector<bool>{false, true}));
    QCOMPARE(rankedByPick({C::Uncalibrated, C::Uncalibrated}, RlxVersion::V0_2_16), (std::vector<bool>{true, true}));
    QCOMPARE(rankedByPick({C::Uncalibrated, C::Measured}, RlxVersion::V0_2_14), (std::vector<bool>{true, true}));
    // fastest_device: one modelled candidate is taken whatever its tag; the rule applies from two.
    DeviceEstimator tagged = [](Device d) -> std::optional<DeviceEstimate> {
        if (d == Device::Cuda)
            return DeviceEstimate(5, C::Uncalibrated);
        if (d == Device::Cpu)
            return DeviceEstimate(9, C::ArchDefault);
        return std::nullopt;
    };
    QCOMPARE(fastestDevice({Device::Cuda, Device::Metal}, tagged), Device::Cuda);
    QCOMPARE(fastestDevice({Device::Cuda, Device::Cpu}, tagged), Device::Cpu);
    QCOMPARE(fastestDevice({Device::Cuda, Device::Cpu}, tagged, RlxVersion::V0_2_14), Device::Cuda);
}

// Hand-checked with cost-model.md §2-§4 on a 1024³ MatMul under rlx-linux. IO: one launch, traffic 3 × 4 MiB
// (two inputs and the output), host output 4 MiB, not unified anywhere, so the readback is 4 MiB + traffic / 4.
// FLOPs 2 · 1024³ = 2 147 483 648.
//   Cpu (ArchDefault):  3 000 + F/201 + 300 + T/30 + R/30           = 11 351 396.4 ns
//   Cuda (Uncalibrated): 35 000 + F/12 001 + 3 000 + T/900 + R/900  =    239 078.7 ns
//   Rocm (Uncalibrated): 40 000 + F/10 001 + 3 000 + T/800 + R/800  =    282 630.6 ns
//   Tpu, Mlx, Metal, Ane (discrete-GPU fallback, Uncalibrated):
//     io_cost = 20 000 + 1 · 2 000 + T/800 + R/50, plus 1 node × 2 000 =    186 529.3 ns
// RLX 0.2.14 picks the lowest: the fallback, Tpu first by priority. RLX 0.2.16 ranks only Cpu: Cpu.
void TestDevicePolicy::rlxLinuxPickDependsOnTheRlxVersion()
{
    const Graph g = bigMatmul();
    const std::vector<DeviceProfile> set = rlxProfileSet("rlx-linux");
    const double F = 2.0 * 1024 * 1024 * 1024, T = 3.0 * 4194304, R = 4194304 + 3145728;
    const std::pair<Device, double> hand[] = {
        {Device::Cpu, 3000 + F / 201 + 300 + T / 30 + R / 30},
        {Device::Cuda, 35000 + F / 12001 + 3000 + T / 900 + R / 900},
        {Device::Rocm, 40000 + F / 10001 + 3000 + T / 800 + R / 800},
        {Device::Tpu, 20000 + 2000 + T / 800 + R / 50 + 2000},
    };
    for (const auto& [d, ns] : hand) {
        const double got = rlxEstimate(g, *findProfile(set, d));
        QVERIFY2(std::abs(got - ns) <= 1e-9 * ns, deviceName(d).data());
    }
    QVERIFY(std::abs(hand[3].second - 186529.28) < 0.01);
    QVERIFY(std::abs(hand[1].second - 239078.66) < 0.01);

    DeviceContext ctx;
    ctx.available = estimableDevices();
    const DeviceEstimator estimate = setEstimator(g, set);
    DevicePolicy old;
    old.rlxVersion = RlxVersion::V0_2_14;
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, old, estimate)->device, Device::Tpu);
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, {}, estimate)->device, Device::Cpu);
    // Without the fallback devices, 0.2.14 picks Cuda, the spec's example: it no longer beats the CPU.
    DevicePolicy noFallback;
    noFallback.deny = {Device::Tpu, Device::Mlx, Device::Metal, Device::Ane};
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, noFallback, estimate)->device, Device::Cpu);
    noFallback.rlxVersion = RlxVersion::V0_2_14;
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, noFallback, estimate)->device, Device::Cuda);
    // Only Uncalibrated candidates (the CPU not allowed): both versions take the lowest, Cuda.
    DevicePolicy gpusOnly;
    gpusOnly.allow = {Device::Cuda, Device::Rocm, Device::Gpu};
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, gpusOnly, estimate)->device, Device::Cuda);
    gpusOnly.rlxVersion = RlxVersion::V0_2_14;
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, gpusOnly, estimate)->device, Device::Cuda);
    // A measured CUDA model (an RLX calibration cache: 5 000 GFLOP/s, 20 µs round trip) is ranked again:
    // 20 000 + F/5 001 + 3 000 + T/900 + R/900 = 474 547.5 ns beats the CPU; 0.2.14 still picks the fallback.
    std::vector<DeviceProfile> measured = set;
    for (DeviceProfile& p : measured)
        if (p.device == Device::Cuda) {
            p.sgemmGflops = 5000;
            p.roundtripNs = 20000;
            p.calibration = Calibration::Measured;
        }
    const DeviceEstimator withCache = setEstimator(g, measured);
    QVERIFY(std::abs(withCache(Device::Cuda)->ns - (20000 + F / 5001 + 3000 + T / 900 + R / 900)) < 1e-3);
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, {}, withCache)->device, Device::Cuda);
    QCOMPARE(resolveDevice(std::nullopt, {}, ctx, old, withCache)->device, Device::Tpu);
}

void TestDevicePolicy::reportSaysWhyADeviceWasLeftOut()
{
    const Graph g = bigMatmul();
    const std::vector<DeviceProfile> set = rlxProfileSet("rlx-linux");
    DeviceContext ctx;
    ctx.available = estimableDevices();
    DevicePolicy p;
    p.deny = {Device::Rocm};
    const auto report = deviceReport(ctx, p, setEstimator(g, set), Device::Cpu);
    QCOMPARE(entry(report, Device::Cpu).calibration, std::optional<Calibration>(Calibration::ArchDefault));
    QCOMPARE(entry(report, Device::Cpu).leftOut, std::string());
    QCOMPARE(entry(report, Device::Cuda).calibration, std::optional<Calibration>(Calibration::Uncalibrated));
    QCOMPARE(entry(report, Device::Cuda).leftOut,
             std::string("left out of the ranking: Uncalibrated model (RLX 0.2.16 ranks Uncalibrated models only "
                         "when every candidate is Uncalibrated)"));
    QCOMPARE(entry(report, Device::Tpu).leftOut, entry(report, Device::Cuda).leftOut);
    // A device the policy blocks is not a candidate: its blocker says why, not the rule.
    QCOMPARE(entry(report, Device::Rocm).blocker, std::string("denied by policy"));
    QCOMPARE(entry(report, Device::Rocm).leftOut, std::string());
    // Under 0.2.14 nothing is left out; with only Uncalibrated candidates, nothing either.
    p.rlxVersion = RlxVersion::V0_2_14;
    for (const DeviceReportEntry& e : deviceReport(ctx, p, setEstimator(g, set), Device::Tpu))
        QCOMPARE(e.leftOut, std::string());
    DevicePolicy gpus;
    gpus.allow = {Device::Cuda, Device::Gpu};
    for (const DeviceReportEntry& e : deviceReport(ctx, gpus, setEstimator(g, set), Device::Cuda))
        QCOMPARE(e.leftOut, std::string());
}

QTEST_GUILESS_MAIN(TestDevicePolicy)
#include "test_device_policy.moc"
