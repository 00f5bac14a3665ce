// SPDX-License-Identifier: MIT
// runOnDevices over a fake backend of several devices: each device's plan lives on one thread of its own, the
// isolated runs never overlap, the concurrent ones start together, and a failing device keeps the others' results.
// The report prices the plan each device ran: kernels of several nodes as fused kernels.
#include "fused_group_prices.h"
#include "multi_device_run.h"
#include "multi_device_run_report.h"
#include "scripted_fusion_graph.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <thread>

using namespace costscope;

namespace {
using Clock = std::chrono::steady_clock;

enum class Behaviour { Ok, CompileFails, CompileThrows, RunFails };

// What the fake plans saw: which thread did what, and when each run began and ended.
struct Journal {
    struct Run {
        DeviceIndex device;
        Clock::time_point begin, end;
    };
    std::mutex mutex;
    std::vector<Run> runs;
    std::vector<std::pair<DeviceIndex, std::thread::id>> owners; // compile, each run and destruction
    std::vector<NodeTiming> kernels;                             // what an instrumented run reports
    void owner(DeviceIndex d)
    {
        const std::lock_guard lock(mutex);
        owners.emplace_back(d, std::this_thread::get_id());
    }
};

class FakePlan : public ExecutablePlan {
public:
    FakePlan(DeviceIndex device, Behaviour behaviour, Journal& journal)
        : m_device(device), m_behaviour(behaviour), m_journal(journal)
    {
        m_journal.owner(device);
    }
    ~FakePlan() override { m_journal.owner(m_device); }
    Result<bool> uploadParameters() override { return true; }
    Result<bool> setInputs(const std::vector<HostTensor>&) override { return true; }
    Result<bool> run(const std::atomic<bool>*) override
    {
        if (m_behaviour == Behaviour::RunFails)
            return Diagnostic::error("device lost");
        m_journal.owner(m_device);
        const auto begin = Clock::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(15));
        const std::lock_guard lock(m_journal.mutex);
        m_journal.runs.push_back({m_device, begin, Clock::now()});
        return true;
    }
    Result<std::vector<NodeTiming>> runInstrumented(const std::atomic<bool>*) override { return m_journal.kernels; }
    Result<std::vector<HostTensor>> readOutputs() const override { return std::vector<HostTensor>{}; }

private:
    DeviceIndex m_device;
    Behaviour m_behaviour;
    Journal& m_journal;
};

class FakeBackend : public Backend {
public:
    FakeBackend(std::vector<Behaviour> behaviours, Journal& journal)
        : m_behaviours(std::move(behaviours)), m_journal(journal)
    {
    }
    std::string name() const override { return "fake"; }
    std::vector<DeviceInfo> devices() const override
    {
        std::vector<DeviceInfo> out;
        for (std::size_t i = 0; i < m_behaviours.size(); ++i)
            out.push_back({"fake", static_cast<DeviceIndex>(i), i < 2 ? "Fake A" : "Fake B", 1 << 30, 1,
                           "0000:0" + std::to_string(i) + ":00.0", 1000, 2000});
        return out;
    }
    Result<std::unique_ptr<ExecutablePlan>> compile(const Graph&, const Bindings&, DeviceIndex device) override
    {
        const Behaviour b = m_behaviours[static_cast<std::size_t>(device)];
        if (b == Behaviour::CompileFails)
            return Diagnostic::error("out of memory: 80 GiB for node 3");
        if (b == Behaviour::CompileThrows)
            throw std::bad_alloc();
        return std::unique_ptr<ExecutablePlan>(std::make_unique<FakePlan>(device, b, m_journal));
    }

private:
    std::vector<Behaviour> m_behaviours;
    Journal& m_journal;
};

MultiDeviceRunOptions fewRuns()
{
    MultiDeviceRunOptions o;
    o.measure.warmupRuns = 1;
    o.measure.timedRuns = 3;
    return o;
}
} // namespace

class TestMultiDeviceRun : public QObject {
    Q_OBJECT
    QTemporaryDir m_data;
private slots:
    void initTestCase()
    {
        // No calibrated profile of the user's: each device is predicted under RLX's CUDA profile.
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    }

    void everyDeviceRunsIsolatedThenTogether()
    {
        Journal journal;
        FakeBackend backend({Behaviour::Ok, Behaviour::Ok, Behaviour::Ok}, journal);
        const auto runs = runOnDevices(backend, Graph{}, {}, backend.devices(), {}, fewRuns());
        QCOMPARE(runs.size(), std::size_t(3));
        for (const DeviceRun& r : runs) {
            QVERIFY2(!r.failed() && r.error.empty(), r.error.c_str());
            QCOMPARE(r.isolated->runs, 3);
            QVERIFY(r.concurrent && r.concurrent->runs == 3);
            QVERIFY(r.isolated->medianNs >= 15'000'000);
        }
        // 4 runs a device and phase: the first 12 are the isolated ones, device after device, none overlapping.
        QCOMPARE(journal.runs.size(), std::size_t(24));
        for (std::size_t i = 0; i < 12; ++i) {
            QCOMPARE(journal.runs[i].device, DeviceIndex(i / 4));
            if (i > 0)
                QVERIFY(journal.runs[i].begin >= journal.runs[i - 1].end);
        }
        // The concurrent phase starts after the last isolated run, and the devices' first runs overlap.
        Clock::time_point latestFirstBegin{}, earliestFirstEnd = Clock::time_point::max();
        std::vector<bool> seen(3, false);
        for (std::size_t i = 12; i < journal.runs.size(); ++i) {
            const Journal::Run& r = journal.runs[i];
            QVERIFY(r.begin >= journal.runs[11].end);
            if (seen[std::size_t(r.device)])
                continue;
            seen[std::size_t(r.device)] = true;
            latestFirstBegin = std::max(latestFirstBegin, r.begin);
            earliestFirstEnd = std::min(earliestFirstEnd, r.end);
        }
        QVERIFY(latestFirstBegin < earliestFirstEnd);
        // One thread per device, from compile to destruction, and a different one for each device.
        std::map<DeviceIndex, std::set<std::thread::id>> threads;
        for (const auto& [device, id] : journal.owners)
            threads[device].insert(id);
        QCOMPARE(threads.size(), std::size_t(3));
        std::set<std::thread::id> distinct;
        for (const auto& [device, ids] : threads) {
            QCOMPARE(ids.size(), std::size_t(1));
            distinct.insert(*ids.begin());
        }
        QCOMPARE(distinct.size(), std::size_t(3));
    }

    void aFailingDeviceKeepsTheOthersResults()
    {
        Journal journal;
        FakeBackend backend(
            {Behaviour::Ok, Behaviour::CompileFails, Behaviour::RunFails, Behaviour::CompileThrows, Behaviour::Ok},
            journal);
        const auto runs = runOnDevices(backend, Graph{}, {}, backend.devices(), {}, fewRuns());
        QCOMPARE(runs.size(), std::size_t(5));
        for (std::size_t i : {0, 4}) {
            QVERIFY2(!runs[i].failed() && runs[i].concurrent, runs[i].error.c_str());
            QCOMPARE(runs[i].device.index, DeviceIndex(i));
        }
        QVERIFY(runs[1].failed());
        QCOMPARE(runs[1].error, std::string("compile: out of memory: 80 GiB for node 3"));
        QVERIFY(runs[2].failed() && !runs[2].concurrent);
        QCOMPARE(runs[2].error, std::string("isolated run: device lost"));
        QVERIFY(runs[3].failed());
        QVERIFY2(runs[3].error.rfind("compile: ", 0) == 0, runs[3].error.c_str());
        QCOMPARE(runs[3].device.name, std::string("Fake B"));
    }

    void spreadIsPerModel()
    {
        auto run = [](const char* model, std::int64_t isolatedNs, std::optional<std::int64_t> concurrentNs) {
            DeviceRun r;
            r.device.name = model;
            r.isolated = TimingStats{3, isolatedNs, isolatedNs, isolatedNs, 0};
            if (concurrentNs)
                r.concurrent = TimingStats{3, *concurrentNs, *concurrentNs, *concurrentNs, 0};
            return r;
        };
        DeviceRun failed;
        failed.device.name = "A";
        const auto spreads =
            spreadByModel({run("A", 100, 200), run("B", 50, std::nullopt), run("A", 110, 220), failed});
        QCOMPARE(spreads.size(), std::size_t(2));
        QCOMPARE(spreads[0].model, std::string("A"));
        QCOMPARE(spreads[0].devices, 2);
        QVERIFY(std::abs(spreads[0].isolated - 0.1) < 1e-9);
        QVERIFY(spreads[0].concurrent && std::abs(*spreads[0].concurrent - 0.1) < 1e-9);
        QCOMPARE(spreads[1].devices, 1);
        QCOMPARE(spreads[1].isolated, 0.0);
        QVERIFY(!spreads[1].concurrent);
    }

    void fusedKernelsArePricedAsTheDeviceRanThem()
    {
        const test::Scripted s = test::scriptedGraph();
        Journal journal;
        journal.kernels = {{s.mm, "MatMul", 1000},
                           {s.add, "Binary.Add", 1000},
                           {s.relu, "Activation.Relu", 1000},
                           {s.out, "fused_mul_add", 1000, {s.mul}}};
        FakeBackend backend({Behaviour::Ok, Behaviour::Ok}, journal);
        const auto report = runAndPredictOnDevices(backend, "cuda", s.g, {}, {}, "", fewRuns());
        QCOMPARE(report.devices.size(), std::size_t(2));
        for (const DeviceRunReport& d : report.devices) {
            QCOMPARE(d.run.fusedGroups, (std::vector<std::vector<NodeId>>{{s.mul, s.out}}));
            QVERIFY2(d.predicted && d.costscopeFused, d.predictionProblem.c_str());
            QCOMPARE(d.predicted->costscope.profile, std::string("rlx-linux/cuda"));
            const FusedPricing expected =
                priceFusedGroups(s.g, {}, d.predicted->costscopeProfile, d.predicted->costscope, {{s.mul, s.out}});
            QCOMPARE(*d.costscopeNs(), measuredPartNs(expected.cost));
            // One kernel for the pair saves the intermediate's round trip through memory.
            QVERIFY(*d.costscopeNs() < measuredPartNs(d.predicted->costscope));
            const double measured = double(d.run.isolated->medianNs);
            QCOMPARE(*d.costscopeError(), (*d.costscopeNs() - measured) / measured);
        }
        // A plan that fused nothing is predicted as the graph.
        journal.kernels.pop_back();
        journal.kernels.push_back({s.mul, "Binary.Mul", 1000});
        journal.kernels.push_back({s.out, "Binary.Add", 1000});
        const auto unfused = runAndPredictOnDevices(backend, "cuda", s.g, {}, {}, "", fewRuns());
        for (const DeviceRunReport& d : unfused.devices) {
            QVERIFY(d.run.fusedGroups.empty() && !d.costscopeFused);
            QCOMPARE(*d.costscopeNs(), measuredPartNs(d.predicted->costscope));
        }
    }

    void noDevicesIsNoRuns()
    {
        Journal journal;
        FakeBackend backend({}, journal);
        QVERIFY(runOnDevices(backend, Graph{}, {}, {}, {}, fewRuns()).empty());
        QVERIFY(spreadByModel({}).empty());
    }
};

QTEST_GUILESS_MAIN(TestMultiDeviceRun)
#include "test_multi_device_run.moc"
