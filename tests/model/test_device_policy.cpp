// SPDX-License-Identifier: MIT
#include "analysis/device_policy.h"
#include "analysis/device_resolution.h"

#include <QTest>

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

QTEST_GUILESS_MAIN(TestDevicePolicy)
#include "test_device_policy.moc"
