// SPDX-License-Identifier: MIT
#include "analysis/device_resolution.h"
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/load.h"
#include "cli/pick_benchmark.h"
#include "cli/pick_devices.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>

namespace costscope::cli {

namespace {
constexpr const char* kUsageText =
    "usage: costscope-cli pick FILE [--allow D,..] [--deny D,..] [--prefer D,..] [--policy cost|benchmark:N]\n"
    "       [--device-hint D | --device all|ID,...] [--bind NAME=VALUE]... [--profiles SET] [--rlx-version V] "
    "[--json]\n"
    "--device: pick among this machine's devices, not kinds: all (every local GPU) or ids (cuda:0,cuda:1,cpu:0,\n"
    "          local/vulkan:0), each under its own calibrated profile, else its datasheet preset, else the set's\n"
    "          profile of its kind (--allow/--deny/--prefer apply by kind; the environment's hint, chain and force\n"
    "          choose kinds and do not apply)\n"
    "--rlx-version: whose cost-model pick (0.2.16, the default, leaves Uncalibrated models out of the ranking unless\n"
    "               every candidate is Uncalibrated; 0.2.14 ranks them all)\n"
    "environment: RLX_/COSTSCOPE_ DEVICES, DENY_DEVICES, PREFER_DEVICES, BENCHMARK_PICK, DEVICE, DEVICE_CHAIN,\n"
    "             FORCE_DEVICE (COSTSCOPE_ wins when both are set; options win over the environment)";

int usage(const std::string& error)
{
    std::cerr << kUsageText << (error.empty() ? "" : "\n" + error) << '\n';
    return kUsage;
}

// The environment's policy, with each list or strategy the command line gives replacing it.
std::optional<DevicePolicy> policyFor(const Args& a, const Environment& env, std::string* error)
{
    auto base = policyFromEnvironment(env);
    if (!base) {
        *error = base.error().message;
        return std::nullopt;
    }
    DevicePolicy p = *base;
    const std::pair<const char*, std::vector<Device>*> lists[] = {
        {"allow", &p.allow}, {"deny", &p.deny}, {"prefer", &p.prefer}};
    for (const auto& [name, list] : lists)
        if (auto text = a.option(name)) {
            auto parsed = parseDeviceList(*text, std::string("--") + name);
            if (!parsed) {
                *error = parsed.error().message;
                return std::nullopt;
            }
            *list = *parsed;
        }
    if (auto version = a.option("rlx-version")) {
        auto v = parseRlxVersion(*version, "--rlx-version");
        if (!v) {
            *error = v.error().message;
            return std::nullopt;
        }
        p.rlxVersion = *v;
    }
    if (auto spec = a.option("policy")) {
        auto withStrategy = withPickStrategy(p, *spec);
        if (!withStrategy) {
            *error = withStrategy.error().message;
            return std::nullopt;
        }
        p = *withStrategy;
    }
    return p;
}

// What the benchmark pick measured: the ranking (median per device) and why other devices were not timed.
struct BenchmarkOutcome {
    bool asked = false;
    int runs = 0;
    std::vector<std::pair<Device, double>> ranking;
    std::map<Device, std::string> failures;
};

void printBenchmark(const BenchmarkOutcome& b)
{
    if (!b.asked)
        return;
    std::cout << "benchmark on this machine (median of " << b.runs << " run(s), fastest first):\n";
    for (const auto& [d, ns] : b.ranking)
        std::cout << "  " << std::left << std::setw(8) << deviceName(d) << std::right << std::setw(16) << std::fixed
                  << std::setprecision(1) << ns << " ns\n";
    for (const auto& [d, why] : b.failures)
        std::cout << "  " << std::left << std::setw(8) << deviceName(d) << std::right << " not benchmarked: " << why
                  << '\n';
}

void printText(const std::string& setName, RlxVersion version, const std::vector<DeviceReportEntry>& report,
               const Result<DeviceResolution>& r, const BenchmarkOutcome& bench)
{
    std::cout << "devices under " << setName << " (RLX cost model, RLX " << rlxVersionName(version)
              << " pick rule):\n";
    for (const DeviceReportEntry& e : report) {
        std::cout << (e.recommended ? "* " : "  ") << std::left << std::setw(8) << deviceName(e.device) << ' '
                  << std::setw(13) << (e.calibration ? calibrationName(*e.calibration) : "-") << std::right
                  << std::setw(16);
        if (e.estimateNs)
            std::cout << std::fixed << std::setprecision(1) << *e.estimateNs << " ns";
        else
            std::cout << "-" << "   ";
        std::cout << "  " << (e.blocker.empty() ? "viable" : e.blocker);
        if (!e.leftOut.empty())
            std::cout << ", " << e.leftOut;
        std::cout << '\n';
    }
    printBenchmark(bench);
    if (!r) {
        std::cout << "pick: none (" << r.error().message << ")\n";
        return;
    }
    std::cout << "pick: " << deviceName(r->device) << " (" << r->reason << ")\n";
    for (const std::string& n : r->notes)
        std::cout << "  note: " << n << '\n';
}
} // namespace

int cmdPick(const std::vector<std::string>& argv)
{
    std::string err, setName;
    auto a = Args::parse(
        argv, {"json"},
        {"allow", "deny", "prefer", "policy", "device-hint", "device", "bind", "profiles", "rlx-version"}, &err);
    if (!a || a->positional().size() != 1)
        return usage(err);
    const Environment env = processEnvironment();
    auto policy = policyFor(*a, env, &err);
    auto bindings = bindingsOption(*a, &err);
    auto set = profileSetOption(*a, &setName, &err);
    std::optional<Device> hint;
    if (auto text = a->option("device-hint"); text && !(hint = deviceOption(*text, &err)))
        return usage(err);
    if (!policy || !bindings || !set)
        return usage(err);
    if (hint && a->option("device"))
        return usage("--device-hint names a device kind; with --device the candidates are the devices named");
    const std::string& path = a->positional()[0];
    auto loaded = loadForCommand(path, a->flag("json"));
    if (!loaded)
        return kBadInput;
    if (auto devices = a->option("device"))
        return pickAmongLocalDevices(loaded->graph, {*devices, setName, *policy, *bindings, a->flag("json")});

    // Estimation covers every op, so every estimable device is available and supports the graph.
    DeviceContext ctx;
    ctx.available = estimableDevices();
    const Graph& g = loaded->graph;
    DeviceEstimator estimate = [&](Device d) -> std::optional<DeviceEstimate> {
        const DeviceProfile* p = findProfile(*set, d);
        if (!p)
            return std::nullopt;
        return DeviceEstimate(rlxEstimate(g, *p, *bindings), p->calibration);
    };
    // Benchmark pick (--policy benchmark:N or RLX_BENCHMARK_PICK=N): the viable devices this machine can run are
    // timed for real; the cost model decides only when none of them runs.
    LocalBenchmark bench(g, *bindings);
    BenchmarkPicker picker;
    const BenchmarkRun run = [&](Device d) { return bench.run(d); };
    const auto resolution = resolveDevice(hint, env, ctx, *policy, estimate, &picker, run);
    const auto report = deviceReport(ctx, *policy, estimate,
                                     resolution ? std::optional<Device>(resolution->device) : std::nullopt);
    BenchmarkOutcome outcome;
    outcome.asked = policy->strategy == PickStrategy::Benchmark;
    outcome.runs = std::max(policy->benchmarkRuns, 1);
    outcome.ranking = picker.ranking();
    outcome.failures = bench.failures();
    if (outcome.asked && resolution && resolution->reason == "cost model") {
        std::cerr << "costscope-cli pick: the benchmark pick ran no device on this machine; the cost model picked";
        for (const auto& [d, why] : outcome.failures)
            std::cerr << "\n  " << deviceName(d) << ": " << why;
        std::cerr << '\n';
    }
    if (!a->flag("json")) {
        printText(setName, policy->rlxVersion, report, resolution, outcome);
        return resolution ? kOk : kCheckFailed;
    }
    nlohmann::ordered_json j;
    j["profiles"] = setName;
    j["rlx_version"] = rlxVersionName(policy->rlxVersion);
    auto devices = nlohmann::ordered_json::array();
    for (const DeviceReportEntry& e : report)
        devices.push_back({{"device", deviceName(e.device)},
                           {"available", e.available},
                           {"supports_graph", e.supportsGraph},
                           {"recommended", e.recommended},
                           {"estimate_ns", e.estimateNs ? nlohmann::ordered_json(*e.estimateNs) : nullptr},
                           {"calibration", e.calibration ? nlohmann::ordered_json(calibrationName(*e.calibration))
                                                         : nullptr},
                           {"blocker", e.blocker},
                           {"left_out", e.leftOut}});
    j["devices"] = devices;
    j["pick"] = resolution ? nlohmann::ordered_json(deviceName(resolution->device)) : nullptr;
    j["reason"] = resolution ? resolution->reason : resolution.error().message;
    j["notes"] = resolution ? resolution->notes : std::vector<std::string>{};
    if (outcome.asked) {
        auto ranked = nlohmann::ordered_json::array();
        for (const auto& [d, ns] : outcome.ranking)
            ranked.push_back({{"device", deviceName(d)}, {"median_ns", ns}, {"runs", outcome.runs}});
        auto failed = nlohmann::ordered_json::array();
        for (const auto& [d, why] : outcome.failures)
            failed.push_back({{"device", deviceName(d)}, {"reason", why}});
        j["benchmark"] = {{"ranking", ranked}, {"not_benchmarked", failed}};
    }
    std::cout << j.dump(2) << '\n';
    return resolution ? kOk : kCheckFailed;
}

} // namespace costscope::cli
