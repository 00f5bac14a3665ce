// SPDX-License-Identifier: MIT
#include "analysis/device_resolution.h"
#include "analysis/rlx_cost_model.h"
#include "analysis/rlx_profiles.h"
#include "cli/analysis_options.h"
#include "cli/commands.h"
#include "cli/load.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>

namespace costscope::cli {

namespace {
constexpr const char* kUsageText =
    "usage: costscope-cli pick FILE [--allow D,..] [--deny D,..] [--prefer D,..] [--policy cost|benchmark:N]\n"
    "       [--device-hint D] [--bind NAME=VALUE]... [--profiles SET] [--json]\n"
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

void printText(const std::string& setName, const std::vector<DeviceReportEntry>& report,
               const Result<DeviceResolution>& r)
{
    std::cout << "devices under " << setName << " (RLX cost model):\n";
    for (const DeviceReportEntry& e : report) {
        std::cout << (e.recommended ? "* " : "  ") << std::left << std::setw(8) << deviceName(e.device) << ' '
                  << std::right << std::setw(16);
        if (e.estimateNs)
            std::cout << std::fixed << std::setprecision(1) << *e.estimateNs << " ns";
        else
            std::cout << "-" << "   ";
        std::cout << "  " << (e.blocker.empty() ? "viable" : e.blocker) << '\n';
    }
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
    auto a = Args::parse(argv, {"json"}, {"allow", "deny", "prefer", "policy", "device-hint", "bind", "profiles"},
                         &err);
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
    const std::string& path = a->positional()[0];
    auto loaded = loadForCommand(path, a->flag("json"));
    if (!loaded)
        return kBadInput;

    // Estimation covers every op, so every estimable device is available and supports the graph.
    DeviceContext ctx;
    ctx.available = estimableDevices();
    const Graph& g = loaded->graph;
    DeviceEstimator estimate = [&](Device d) -> std::optional<double> {
        const DeviceProfile* p = findProfile(*set, d);
        return p ? std::optional<double>(rlxEstimate(g, *p, *bindings)) : std::nullopt;
    };
    const auto resolution = resolveDevice(hint, env, ctx, *policy, estimate);
    const auto report = deviceReport(ctx, *policy, estimate,
                                     resolution ? std::optional<Device>(resolution->device) : std::nullopt);
    if (!a->flag("json")) {
        printText(setName, report, resolution);
        return resolution ? kOk : kCheckFailed;
    }
    nlohmann::ordered_json j;
    j["profiles"] = setName;
    auto devices = nlohmann::ordered_json::array();
    for (const DeviceReportEntry& e : report)
        devices.push_back({{"device", deviceName(e.device)},
                           {"available", e.available},
                           {"supports_graph", e.supportsGraph},
                           {"recommended", e.recommended},
                           {"estimate_ns", e.estimateNs ? nlohmann::ordered_json(*e.estimateNs) : nullptr},
                           {"blocker", e.blocker}});
    j["devices"] = devices;
    j["pick"] = resolution ? nlohmann::ordered_json(deviceName(resolution->device)) : nullptr;
    j["reason"] = resolution ? resolution->reason : resolution.error().message;
    j["notes"] = resolution ? resolution->notes : std::vector<std::string>{};
    std::cout << j.dump(2) << '\n';
    return resolution ? kOk : kCheckFailed;
}

} // namespace costscope::cli
