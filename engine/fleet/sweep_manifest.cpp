// SPDX-License-Identifier: MIT
#include "fleet/sweep_manifest.h"

#include "device_ref.h"
#include "remote/ssh_target.h"

#include <nlohmann/json.hpp>

namespace costscope {

namespace {
// A manifest's device: "cuda" (its device 0) or a device id of the worker, "cuda:1" or "local/cuda:1". A host's id is
// refused: Ray, not the manifest, picks the worker a cell runs on.
Result<DeviceRef> manifestDevice(const std::string& d, const std::string& origin)
{
    const std::string what = origin + ": device";
    if (d.find(':') == std::string::npos && d.find('/') == std::string::npos) {
        if (!isKnownBackend(d))
            return Diagnostic::error(what + " '" + d + "' names no backend Costscope has (cpu, cuda, vulkan)");
        return DeviceRef{"", d, 0};
    }
    auto ref = parseDeviceRef(d, what);
    if (ref && !ref->local())
        return Diagnostic::error(what + " '" + d
                                 + "': Ray picks the worker each cell runs on, so a sweep names "
                                   "devices as the worker sees them ("
                                 + ref->backend + ":" + std::to_string(ref->index) + "), not by host");
    return ref;
}
} // namespace

std::vector<SweepCell> SweepManifest::cells() const
{
    std::vector<SweepCell> out;
    for (const std::string& g : graphs)
        for (std::int64_t b : batches)
            for (const std::string& d : devices) {
                const auto ref = manifestDevice(d, "manifest"); // checked by parseSweepManifest
                out.push_back({g, b, d, ref ? ref->backend : d, ref ? ref->index : 0});
            }
    return out;
}

Result<SweepManifest> parseSweepManifest(const std::string& text, const std::string& origin)
{
    using Json = nlohmann::json;
    SweepManifest m;
    try {
        const Json j = Json::parse(text);
        m.graphs = j.at("graphs").get<std::vector<std::string>>();
        if (j.contains("batches"))
            m.batches = j["batches"].get<std::vector<std::int64_t>>();
        if (j.contains("devices"))
            m.devices = j["devices"].get<std::vector<std::string>>();
        m.batchSymbol = j.value("batch_symbol", m.batchSymbol);
        m.cli = j.value("cli", m.cli);
        m.runArgs = j.value("run_args", m.runArgs);
        m.retries = j.value("retries", m.retries);
        m.maxInFlight = j.value("max_in_flight", m.maxInFlight);
        m.jobTimeout = std::chrono::seconds(j.value("job_timeout_s", 600));
        m.poll = std::chrono::milliseconds(j.value("poll_ms", 500));
    } catch (const Json::exception& e) {
        return Diagnostic::error(origin + ": " + e.what());
    }
    if (m.graphs.empty() || m.batches.empty() || m.devices.empty())
        return Diagnostic::error(origin + ": \"graphs\", \"batches\" and \"devices\" must not be empty");
    for (std::int64_t b : m.batches)
        if (b < 0)
            return Diagnostic::error(origin + ": batches must be >= 0 (0: as the file states)");
    for (const std::string& d : m.devices)
        if (auto ref = manifestDevice(d, origin); !ref)
            return ref.error();
    if (m.retries < 0 || m.maxInFlight < 1 || m.jobTimeout.count() < 1 || m.poll.count() < 10)
        return Diagnostic::error(origin + ": retries >= 0, max_in_flight >= 1, job_timeout_s >= 1, poll_ms >= 10");
    return m;
}

std::string sweepEntrypoint(const SweepManifest& m, const SweepCell& cell)
{
    std::vector<std::string> words = {m.cli, "run", cell.graph};
    if (cell.batch > 0 && m.batchSymbol.empty())
        words.insert(words.end(), {"--batch", std::to_string(cell.batch)});
    else if (cell.batch > 0)
        words.insert(words.end(), {"--bind", m.batchSymbol + '=' + std::to_string(cell.batch)});
    words.insert(words.end(), {"--backend", cell.backend, "--device", std::to_string(cell.deviceIndex)});
    words.insert(words.end(), m.runArgs.begin(), m.runArgs.end());
    words.push_back("--json");
    std::string line;
    for (const std::string& w : words)
        line += (line.empty() ? "" : " ") + shellQuote(w);
    return line;
}

} // namespace costscope
