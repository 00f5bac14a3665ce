// SPDX-License-Identifier: MIT
#include "analysis/device_resolution.h"

#include <algorithm>
#include <limits>

namespace costscope {

namespace {
bool contains(const std::vector<Device>& list, Device d)
{
    return std::find(list.begin(), list.end(), d) != list.end();
}

std::optional<std::string> firstBlocker(Device d, const DeviceContext& ctx, const DevicePolicy& policy)
{
    if (!contains(ctx.available, d))
        return "not available";
    if (ctx.firstUnsupportedOp)
        if (auto op = ctx.firstUnsupportedOp(d))
            return "unsupported op: " + *op;
    return policyBlocker(d, policy);
}

std::vector<std::pair<Device, DeviceEstimate>> modelledCandidates(const std::vector<Device>& candidates,
                                                                  const DeviceEstimator& estimate)
{
    std::vector<std::pair<Device, DeviceEstimate>> modelled;
    for (Device d : candidates)
        if (auto e = estimate ? estimate(d) : std::nullopt)
            modelled.emplace_back(d, *e);
    return modelled;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t mid = v.size() / 2;
    return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}
} // namespace

std::vector<Device> viableDevices(const DeviceContext& ctx, const DevicePolicy& policy)
{
    std::vector<Device> viable;
    for (Device d : sortCandidates(ctx.available, policy))
        if (!firstBlocker(d, ctx, policy))
            viable.push_back(d);
    return viable;
}

Device pickBestDevice(const std::vector<std::pair<Device, DeviceEstimate>>& estimates, RlxVersion version)
{
    std::vector<Calibration> tags;
    for (const auto& e : estimates)
        tags.push_back(e.second.calibration);
    const std::vector<bool> ranked = rankedByPick(tags, version);
    Device best = Device::Cpu;
    double bestNs = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < estimates.size(); ++i)
        if (ranked[i] && estimates[i].second.ns < bestNs) {
            best = estimates[i].first;
            bestNs = estimates[i].second.ns;
        }
    return best;
}

std::optional<Device> fastestDevice(const std::vector<Device>& candidates, const DeviceEstimator& estimate,
                                    RlxVersion version)
{
    if (candidates.empty())
        return std::nullopt;
    const auto modelled = modelledCandidates(candidates, estimate);
    if (modelled.size() >= 2)
        return pickBestDevice(modelled, version);
    if (modelled.size() == 1)
        return modelled.front().first;
    return candidates.front();
}

std::vector<DeviceReportEntry> deviceReport(const DeviceContext& ctx, const DevicePolicy& policy,
                                            const DeviceEstimator& estimate, std::optional<Device> recommended)
{
    // Which viable devices the cost-model pick ranks (it ranks only when two or more have a model).
    const auto modelled = modelledCandidates(viableDevices(ctx, policy), estimate);
    std::vector<Calibration> tags;
    for (const auto& m : modelled)
        tags.push_back(m.second.calibration);
    const std::vector<bool> ranked = rankedByPick(tags, policy.rlxVersion);
    std::vector<DeviceReportEntry> out;
    for (Device d : devicePriority()) {
        if (!contains(estimableDevices(), d) && !contains(ctx.available, d))
            continue;
        DeviceReportEntry e;
        e.device = d;
        e.available = contains(ctx.available, d);
        e.supportsGraph = e.available && !(ctx.firstUnsupportedOp && ctx.firstUnsupportedOp(d));
        e.recommended = recommended == d;
        if (auto est = estimate ? estimate(d) : std::nullopt) {
            e.estimateNs = est->ns;
            e.calibration = est->calibration;
        }
        e.blocker = firstBlocker(d, ctx, policy).value_or("");
        for (std::size_t i = 0; i < modelled.size(); ++i)
            if (modelled[i].first == d && modelled.size() >= 2 && !ranked[i])
                e.leftOut = leftOutReason(modelled[i].second.calibration, policy.rlxVersion);
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<std::pair<Device, double>> BenchmarkPicker::rank(const std::vector<Device>& viable, int runs,
                                                             const BenchmarkRun& run)
{
    std::vector<std::pair<Device, double>> ranked;
    for (Device d : viable) {
        std::vector<double> times;
        for (int i = 0; i < std::max(runs, 1); ++i) {
            auto t = run(d);
            if (!t) {
                times.clear();
                break;
            }
            times.push_back(*t);
        }
        if (!times.empty())
            ranked.emplace_back(d, median(times));
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return ranked;
}

std::optional<Device> BenchmarkPicker::pick(const DevicePolicy& policy, const std::vector<Device>& viable,
                                            const BenchmarkRun& run)
{
    if (m_policy == policy && m_winner)
        return m_winner;
    m_ranking = rank(viable, policy.benchmarkRuns, run);
    m_policy = policy;
    m_winner = m_ranking.empty() ? std::nullopt : std::optional<Device>(m_ranking.front().first);
    return m_winner;
}

Result<DeviceResolution> resolveDevice(std::optional<Device> hint, const Environment& env, const DeviceContext& ctx,
                                       const DevicePolicy& policy, const DeviceEstimator& estimate,
                                       BenchmarkPicker* picker, const BenchmarkRun& run)
{
    auto named = [](const std::string& var, const std::string& value) -> Result<std::optional<Device>> {
        auto d = parseDevice(value);
        if (!d)
            return Diagnostic::error(var + ": unknown device '" + value + "'");
        return std::optional<Device>(d);
    };
    if (auto forced = envSetting(env, "FORCE_DEVICE")) {
        auto d = named("RLX_FORCE_DEVICE", *forced);
        if (!d)
            return d.error();
        return DeviceResolution{**d, "forced by RLX_FORCE_DEVICE", {}};
    }
    const std::vector<Device> viable = viableDevices(ctx, policy);
    if (auto chainText = envSetting(env, "DEVICE_CHAIN")) {
        auto chain = parseDeviceList(*chainText, "RLX_DEVICE_CHAIN");
        if (!chain)
            return chain.error();
        for (Device d : *chain)
            if (contains(viable, d))
                return DeviceResolution{d, "first viable device of RLX_DEVICE_CHAIN", {}};
        return Diagnostic::error("no device of the chain " + deviceListText(*chain)
                                 + " is viable; viable devices: " + deviceListText(viable));
    }
    DeviceResolution r;
    if (hint) {
        if (contains(viable, *hint))
            return DeviceResolution{*hint, "hint", {}};
        r.notes.push_back("hint " + std::string(deviceName(*hint)) + " is not viable: "
                          + firstBlocker(*hint, ctx, policy).value_or("not available"));
    }
    if (auto envDevice = envSetting(env, "DEVICE")) {
        auto d = named("RLX_DEVICE", *envDevice);
        if (!d)
            return d.error();
        if (contains(viable, **d))
            return DeviceResolution{**d, "RLX_DEVICE", r.notes};
        r.notes.push_back("RLX_DEVICE " + std::string(deviceName(**d)) + " is not viable: "
                          + firstBlocker(**d, ctx, policy).value_or("not available"));
    }
    if (viable.empty())
        return Diagnostic::error("no viable device: every device is unavailable, unsupported or excluded by policy");
    if (policy.strategy == PickStrategy::Benchmark) {
        if (picker && run)
            if (auto d = picker->pick(policy, viable, run)) {
                r.device = *d;
                r.reason = "benchmark";
                return r;
            }
        r.notes.push_back("benchmark pick could not run: cost-model pick used");
    }
    r.device = *fastestDevice(viable, estimate, policy.rlxVersion);
    r.reason = "cost model";
    return r;
}

std::optional<Device> runWithFallback(const std::vector<Device>& order, const DeviceAttempt& attempt,
                                      const std::function<void(Device, const std::string&)>& onError)
{
    for (Device d : order) {
        auto error = attempt(d);
        if (!error)
            return d;
        if (onError)
            onError(d, *error);
    }
    return std::nullopt;
}

} // namespace costscope
