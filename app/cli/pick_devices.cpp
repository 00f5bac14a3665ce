// SPDX-License-Identifier: MIT
#include "cli/pick_devices.h"

#include "analysis/rlx_cost_model.h"
#include "cli/args.h"
#include "device_ref.h"
#include "local_device_pick.h"
#include "multi_device_run.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

namespace costscope::cli {

namespace {

using Json = nlohmann::ordered_json;

// The benchmark pick among instances: each allowed device alone, median of `runs`, fastest first.
struct InstanceBenchmark {
    std::vector<std::pair<std::string, double>> ranking; // id, median ns
    std::map<std::string, std::string> failures;         // id → why it was not timed
};

InstanceBenchmark benchmarkDevices(const Graph& g, const Bindings& bindings, const LocalDevicePick& p, int runs)
{
    InstanceBenchmark out;
    std::map<std::string, std::vector<DeviceInfo>> byBackend;
    for (std::size_t i : p.estimated)
        byBackend[p.candidates[i].info.backend].push_back(p.candidates[i].info);
    MultiDeviceRunOptions options;
    options.measure.warmupRuns = 1;
    options.measure.timedRuns = std::max(runs, 1);
    options.concurrent = false; // the pick wants each device's own time, not the contention figure
    for (const auto& [name, devices] : byBackend) {
        auto backend = loadBackend(name);
        if (!backend) {
            for (const DeviceInfo& d : devices)
                out.failures[localDeviceId(d)] = backend.error().message;
            continue;
        }
        for (const DeviceRun& r : runOnDevices(**backend, g, bindings, devices, {}, options)) {
            if (r.failed())
                out.failures[localDeviceId(r.device)] = r.error;
            else
                out.ranking.emplace_back(localDeviceId(r.device), static_cast<double>(r.isolated->medianNs));
        }
    }
    std::stable_sort(out.ranking.begin(), out.ranking.end(),
                     [](const auto& a, const auto& b) { return a.second < b.second; });
    return out;
}

// Which device, by what (the cost model or the benchmark) and why.
struct Outcome {
    std::string pickedId; // empty: none
    std::string by;
    std::string why;
    std::vector<std::string> notes;
};

void printText(const DevicesPick& settings, const LocalDevicePick& p, const Outcome& o, const InstanceBenchmark* bench,
               int runs)
{
    std::cout << "local devices (RLX cost model, RLX " << rlxVersionName(settings.policy.rlxVersion)
              << " pick rule; a device without a profile of its own falls back to " << settings.setName << "):\n";
    std::size_t e = 0;
    for (std::size_t i = 0; i < p.candidates.size(); ++i) {
        const DeviceCandidate& c = p.candidates[i];
        std::cout << (c.id == o.pickedId ? "* " : "  ") << std::left << std::setw(10) << c.id << c.label() << '\n'
                  << "      " << c.profile.name << " (" << c.profileOrigin << ", "
                  << calibrationName(c.profile.calibration) << ")";
        if (!p.blockers[i].empty()) {
            std::cout << "  " << p.blockers[i] << '\n';
            continue;
        }
        std::cout << std::right << std::fixed << std::setprecision(1) << "  " << p.estimates[e].ns / 1000.0 << " us";
        if (!p.pick.ranked[e])
            std::cout << ", " << leftOutReason(c.profile.calibration, settings.policy.rlxVersion);
        std::cout << '\n';
        ++e;
    }
    if (bench) {
        std::cout << "benchmark on this machine (median of " << runs << " run(s), fastest first):\n";
        for (const auto& [id, ns] : bench->ranking)
            std::cout << "  " << std::left << std::setw(10) << id << std::right << std::setw(14) << ns / 1000.0
                      << " us\n";
        for (const auto& [id, why] : bench->failures)
            std::cout << "  " << std::left << std::setw(10) << id << " not benchmarked: " << why << '\n';
    }
    if (o.pickedId.empty())
        std::cout << "pick: none (" << o.why << ")\n";
    else
        std::cout << "pick: " << o.pickedId << " (" << o.by << ": " << o.why << ")\n";
    for (const std::string& n : o.notes)
        std::cout << "  note: " << n << '\n';
}

Json jsonOf(const DevicesPick& settings, const LocalDevicePick& p, const Outcome& o, const InstanceBenchmark* bench,
            int runs)
{
    Json j;
    j["profiles"] = settings.setName;
    j["rlx_version"] = rlxVersionName(settings.policy.rlxVersion);
    Json devices = Json::array();
    std::size_t e = 0;
    for (std::size_t i = 0; i < p.candidates.size(); ++i) {
        const DeviceCandidate& c = p.candidates[i];
        Json d{{"id", c.id},
               {"backend", c.info.backend},
               {"index", c.info.index},
               {"name", c.info.name},
               {"pci_bus_id", c.info.pciBusId},
               {"kind", std::string(deviceName(c.kind))},
               {"profile", c.profile.name},
               {"profile_origin", c.profileOrigin},
               {"calibration", std::string(calibrationName(c.profile.calibration))},
               {"recommended", c.id == o.pickedId},
               {"blocker", p.blockers[i]}};
        if (p.blockers[i].empty()) {
            d["estimate_ns"] = p.estimates[e].ns;
            d["ranked"] = bool(p.pick.ranked[e]);
            d["left_out"] =
                p.pick.ranked[e] ? std::string() : leftOutReason(c.profile.calibration, settings.policy.rlxVersion);
            ++e;
        } else {
            d["estimate_ns"] = nullptr;
            d["ranked"] = false;
            d["left_out"] = "";
        }
        devices.push_back(std::move(d));
    }
    j["devices"] = devices;
    j["pick"] = o.pickedId.empty() ? Json() : Json(o.pickedId);
    j["reason"] = o.pickedId.empty() ? o.why : o.by;
    j["why"] = o.why;
    j["notes"] = o.notes;
    if (bench) {
        Json ranked = Json::array();
        for (const auto& [id, ns] : bench->ranking)
            ranked.push_back({{"id", id}, {"median_ns", ns}, {"runs", runs}});
        Json failed = Json::array();
        for (const auto& [id, why] : bench->failures)
            failed.push_back({{"id", id}, {"reason", why}});
        j["benchmark"] = {{"ranking", ranked}, {"not_benchmarked", failed}};
    }
    return j;
}

} // namespace

int pickAmongLocalDevices(const Graph& g, const DevicesPick& settings)
{
    std::vector<std::unique_ptr<Backend>> backends = availableBackends();
    std::vector<const Backend*> views;
    for (const auto& b : backends)
        views.push_back(b.get());
    const std::vector<DeviceInfo> all = devicesOf(views);
    auto selected = selectLocalDevices(all, settings.spec, "--device");
    if (!selected) {
        std::cerr << "costscope-cli pick: " << selected.error().message << '\n';
        if (settings.spec == "all")
            for (const BackendStatus& s : backendStatus())
                if (!s.available)
                    std::cerr << "  " << s.name << ": " << s.detail << '\n';
        return kBadInput;
    }
    const ProfileLibrary library = ProfileLibrary::load(ProfilePaths::defaults());
    const LocalDevicePick p =
        pickAmongDevices(deviceCandidates(*selected, all, library, settings.setName), settings.policy,
                         [&](const DeviceProfile& profile) { return rlxEstimate(g, profile, settings.bindings); });

    const DeviceCandidate* byModel = p.picked();
    Outcome o;
    o.pickedId = byModel ? byModel->id : std::string();
    o.by = "cost model";
    o.why = byModel ? p.pick.reason : "every device named is blocked by the policy";
    const bool benchmark = settings.policy.strategy == PickStrategy::Benchmark;
    const int runs = std::max(settings.policy.benchmarkRuns, 1);
    InstanceBenchmark bench;
    if (benchmark && !p.estimated.empty()) {
        bench = benchmarkDevices(g, settings.bindings, p, runs);
        if (!bench.ranking.empty()) {
            o.pickedId = bench.ranking.front().first;
            o.by = "benchmark";
            std::ostringstream why;
            why << std::fixed << std::setprecision(1) << "fastest median, " << bench.ranking.front().second / 1000.0
                << " us of " << runs << " run(s)";
            o.why = why.str();
        } else {
            std::cerr
                << "costscope-cli pick: the benchmark pick ran no device on this machine; the cost model picked\n";
            o.notes.push_back("benchmark pick could not run: cost-model pick used");
        }
    }
    if (settings.json)
        std::cout << jsonOf(settings, p, o, benchmark ? &bench : nullptr, runs).dump(2) << '\n';
    else
        printText(settings, p, o, benchmark ? &bench : nullptr, runs);
    return o.pickedId.empty() ? kCheckFailed : kOk;
}

} // namespace costscope::cli
