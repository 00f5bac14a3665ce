// SPDX-License-Identifier: MIT
// costscope-cli run FILE --device all: the graph on every device of a backend, each device on a thread of its own
// (engine/multi_device_run.h), compared with each device's own calibrated profile.
#include "cli/run_all_devices.h"

#include "cli/args.h"
#include "cli/run_output.h"
#include "multi_device_run_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace costscope::cli {

namespace {
using Json = nlohmann::ordered_json;

Json timingJson(const std::optional<TimingStats>& t)
{
    if (!t)
        return nullptr;
    return {{"runs", t->runs},
            {"median_ns", t->medianNs},
            {"min_ns", t->minNs},
            {"max_ns", t->maxNs},
            {"spread", t->spread}};
}

Json deviceJson(const DeviceRunReport& d)
{
    const DeviceInfo& info = d.run.device;
    Json j = {{"index", info.index},
              {"name", info.name},
              {"pci_bus_id", info.pciBusId},
              {"ok", !d.run.failed()},
              {"isolated", timingJson(d.run.isolated)},
              {"concurrent", timingJson(d.run.concurrent)}};
    if (const auto contention = d.contention())
        j["contention"] = *contention;
    if (d.predicted && d.run.isolated) {
        const auto measured = double(d.run.isolated->medianNs);
        for (const GraphCost* c : {&d.predicted->rlx, &d.predicted->costscope})
            j["predicted"][c->model] = predictedJson(*c, measured);
        if (d.costscopeFused) // the plan as it ran, each fused kernel priced as one (as `run` does)
            j["predicted"]["costscope_fused"] = predictedJson(*d.costscopeFused, measured);
        j["fused_kernels"] = d.run.fusedGroups.size();
    }
    if (!d.predictionProblem.empty())
        j["prediction_error"] = d.predictionProblem;
    if (!d.run.error.empty())
        j["error"] = d.run.error;
    return j;
}

std::string ms(const std::optional<TimingStats>& t)
{
    if (!t)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", double(t->medianNs) / 1e6);
    return text;
}

std::string percent(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f %%", v * 100);
    return text;
}

void printTable(const Graph& g, const std::string& backend, const std::vector<DeviceRunReport>& reports,
                const std::vector<ModelSpread>& spreads)
{
    std::printf("graph: %s on every %s device (medians in ms; isolated: one device at a time, concurrent: all at "
                "once)\n",
                g.name.c_str(), backend.c_str());
    int nameWidth = 4;
    for (const DeviceRunReport& d : reports)
        nameWidth = std::max(nameWidth, static_cast<int>(d.run.device.name.size()));
    std::printf("%-4s %-*s %-13s %10s %10s %11s %10s %9s  %s\n", "dev", nameWidth, "name", "pci", "isolated",
                "concurrent", "contention", "predicted", "error", "profile");
    for (const DeviceRunReport& d : reports) {
        const DeviceRun& r = d.run;
        const std::string contention = d.contention() ? percent(*d.contention()) : "-";
        std::string predicted = "-", error = "-", profile = "-";
        if (d.predicted) {
            char text[32];
            std::snprintf(text, sizeof text, "%.3f", d.costscopeNs().value_or(0) / 1e6);
            predicted = text;
            profile = d.predicted->costscope.profile;
            if (const auto e = d.costscopeError())
                error = percent(*e);
        }
        std::printf("%-4d %-*s %-13s %10s %10s %11s %10s %9s  %s\n", r.device.index, nameWidth, r.device.name.c_str(),
                    r.device.pciBusId.empty() ? "-" : r.device.pciBusId.c_str(), ms(r.isolated).c_str(),
                    ms(r.concurrent).c_str(), contention.c_str(), predicted.c_str(), error.c_str(), profile.c_str());
    }
    for (const ModelSpread& s : spreads)
        std::printf("spread of %s (%d device%s, max/min - 1): isolated %s, concurrent %s\n", s.model.c_str(), s.devices,
                    s.devices == 1 ? "" : "s", percent(s.isolated).c_str(),
                    s.concurrent ? percent(*s.concurrent).c_str() : "-");
    for (const DeviceRunReport& d : reports)
        if (!d.run.error.empty())
            std::printf("%s:%d (%s) %s: %s\n", backend.c_str(), d.run.device.index, d.run.device.name.c_str(),
                        d.run.failed() ? "FAILED" : "partly failed", d.run.error.c_str());
    std::fflush(stdout);
}
} // namespace

int runOnAllDevices(Backend& backend, const Graph& g, const AllDevicesRun& run)
{
    if (backend.devices().empty()) {
        std::cerr << "costscope-cli run: backend " << run.backend
                  << " has no devices (its plugin loaded, but it found no device or driver; a CUDA_VISIBLE_DEVICES "
                     "that is empty hides every GPU): see costscope-cli devices\n";
        return kBadInput;
    }
    MultiDeviceRunOptions options;
    options.measure = run.measure;
    const MultiDeviceRunReport report =
        runAndPredictOnDevices(backend, run.backend, g, run.bindings, run.inputs, run.profile, options);
    const std::vector<DeviceRunReport>& reports = report.devices;
    const std::vector<ModelSpread>& spreads = report.spreads;
    if (run.json) {
        Json j = {{"graph", g.name},
                  {"file", run.file},
                  {"backend", run.backend},
                  {"bindings", run.bindings},
                  {"runs", run.measure.timedRuns},
                  {"warmup", run.measure.warmupRuns}};
        j["devices"] = Json::array();
        for (const DeviceRunReport& d : reports)
            j["devices"].push_back(deviceJson(d));
        j["spread"] = Json::array();
        for (const ModelSpread& s : spreads)
            j["spread"].push_back({{"model", s.model},
                                   {"devices", s.devices},
                                   {"isolated", s.isolated},
                                   {"concurrent", s.concurrent ? Json(*s.concurrent) : Json(nullptr)}});
        std::cout << j.dump(2) << '\n';
    } else {
        printTable(g, run.backend, reports, spreads);
    }
    for (const DeviceRunReport& d : reports)
        if (d.run.failed() && run.json)
            std::cerr << "costscope-cli run: " << run.backend << ':' << d.run.device.index << " (" << d.run.device.name
                      << ") failed: " << d.run.error << '\n';
    return report.allFailed() ? kBadInput : kOk;
}

} // namespace costscope::cli
