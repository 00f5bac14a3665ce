// SPDX-License-Identifier: MIT
#include "analysis/device_policy.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace costscope {

namespace {
constexpr std::string_view kSettings[] = {"DEVICES", "DENY_DEVICES", "PREFER_DEVICES", "BENCHMARK_PICK",
                                          "DEVICE",  "DEVICE_CHAIN", "FORCE_DEVICE",   "WORKERS"};

bool contains(const std::vector<Device>& list, Device d)
{
    return std::find(list.begin(), list.end(), d) != list.end();
}

std::string trim(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t");
    return std::string(s.substr(first, last - first + 1));
}

std::optional<int> parseCount(std::string_view s)
{
    int n = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc{} || ptr != s.data() + s.size() || n < 0)
        return std::nullopt;
    return n;
}
} // namespace

Environment processEnvironment()
{
    Environment env;
    for (std::string_view key : kSettings)
        for (const char* prefix : {"RLX_", "COSTSCOPE_"}) {
            const std::string name = prefix + std::string(key);
            if (const char* v = std::getenv(name.c_str()))
                env[name] = v;
        }
    return env;
}

std::optional<std::string> envSetting(const Environment& env, std::string_view key)
{
    for (const char* prefix : {"COSTSCOPE_", "RLX_"}) {
        auto it = env.find(prefix + std::string(key));
        if (it != env.end() && !trim(it->second).empty())
            return trim(it->second);
    }
    return std::nullopt;
}

Result<std::vector<Device>> parseDeviceList(std::string_view csv, std::string_view what)
{
    std::vector<Device> out;
    std::size_t start = 0;
    while (start <= csv.size()) {
        const auto comma = std::min(csv.find(',', start), csv.size());
        const std::string name = trim(csv.substr(start, comma - start));
        start = comma + 1;
        if (name.empty())
            continue;
        auto d = parseDevice(name);
        if (!d)
            return Diagnostic::error(std::string(what) + ": unknown device '" + name + "'");
        if (!contains(out, *d))
            out.push_back(*d);
    }
    return out;
}

Result<DevicePolicy> withPickStrategy(DevicePolicy policy, std::string_view spec)
{
    if (spec == "cost") {
        policy.strategy = PickStrategy::CostModel;
        return policy;
    }
    constexpr std::string_view kBench = "benchmark:";
    if (spec.substr(0, kBench.size()) == kBench)
        if (auto runs = parseCount(spec.substr(kBench.size())); runs && *runs >= 1) {
            policy.strategy = PickStrategy::Benchmark;
            policy.benchmarkRuns = *runs;
            return policy;
        }
    return Diagnostic::error("pick strategy must be 'cost' or 'benchmark:N' with N >= 1, found '" + std::string(spec)
                             + "'");
}

Result<DevicePolicy> policyFromEnvironment(const Environment& env)
{
    DevicePolicy p;
    const std::pair<std::string_view, std::vector<Device>*> lists[] = {
        {"DEVICES", &p.allow}, {"DENY_DEVICES", &p.deny}, {"PREFER_DEVICES", &p.prefer}};
    for (const auto& [key, list] : lists)
        if (auto v = envSetting(env, key)) {
            auto parsed = parseDeviceList(*v, "RLX_" + std::string(key));
            if (!parsed)
                return parsed.error();
            *list = *parsed;
        }
    if (auto v = envSetting(env, "BENCHMARK_PICK")) {
        auto runs = parseCount(*v);
        if (!runs)
            return Diagnostic::error("RLX_BENCHMARK_PICK: expected a run count, found '" + *v + "'");
        p.strategy = PickStrategy::Benchmark;
        p.benchmarkRuns = std::max(*runs, 1);
    }
    return p;
}

std::optional<std::string> policyBlocker(Device d, const DevicePolicy& policy)
{
    if (contains(policy.deny, d))
        return "denied by policy";
    if (!policy.allow.empty() && !contains(policy.allow, d))
        return "not in allow-list";
    return std::nullopt;
}

std::vector<Device> sortCandidates(const std::vector<Device>& devices, const DevicePolicy& policy)
{
    std::vector<Device> out;
    for (Device d : devices)
        if (!policyBlocker(d, policy) && !contains(out, d))
            out.push_back(d);
    auto preferRank = [&](Device d) {
        return std::find(policy.prefer.begin(), policy.prefer.end(), d) - policy.prefer.begin();
    };
    std::stable_sort(out.begin(), out.end(), [&](Device a, Device b) {
        return std::pair(preferRank(a), priorityRank(a)) < std::pair(preferRank(b), priorityRank(b));
    });
    return out;
}

std::string deviceListText(const std::vector<Device>& devices)
{
    std::string s;
    for (Device d : devices)
        s += (s.empty() ? "" : ", ") + std::string(deviceName(d));
    return s.empty() ? "(none)" : s;
}

} // namespace costscope
