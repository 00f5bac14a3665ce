// SPDX-License-Identifier: MIT
#include "multi_device_run_report.h"

#include "calibration/device_profile_name.h"
#include "device_ref.h"
#include "fused_group_prices.h"

#include <algorithm>

namespace costscope {

std::optional<double> DeviceRunReport::contention() const
{
    if (!run.isolated || !run.concurrent || run.isolated->medianNs <= 0)
        return std::nullopt;
    return double(run.concurrent->medianNs) / double(run.isolated->medianNs) - 1;
}

std::optional<double> DeviceRunReport::costscopeNs() const
{
    if (costscopeFused)
        return measuredPartNs(*costscopeFused);
    if (predicted)
        return measuredPartNs(predicted->costscope); // what a timed run measures: no read-back
    return std::nullopt;
}

std::optional<double> DeviceRunReport::costscopeError() const
{
    const auto predictedNs = costscopeNs();
    if (!predictedNs || !run.isolated || run.isolated->medianNs <= 0)
        return std::nullopt;
    const auto measured = double(run.isolated->medianNs);
    return (*predictedNs - measured) / measured;
}

bool MultiDeviceRunReport::allFailed() const
{
    return std::all_of(devices.begin(), devices.end(), [](const DeviceRunReport& d) { return d.run.failed(); });
}

RunDevicePick pickAmongRunDevices(const MultiDeviceRunReport& report, RlxVersion version)
{
    RunDevicePick out;
    for (std::size_t i = 0; i < report.devices.size(); ++i) {
        const DeviceRunReport& d = report.devices[i];
        if (d.run.failed())
            continue;
        if (!out.fastestMeasured
            || d.run.isolated->medianNs < report.devices[*out.fastestMeasured].run.isolated->medianNs)
            out.fastestMeasured = i;
        if (!d.predicted)
            continue;
        const DeviceInfo& info = d.run.device;
        out.estimates.push_back({localDeviceId(info),
                                 info.pciBusId.empty() ? info.name : info.name + ", PCI " + info.pciBusId,
                                 d.predicted->costscopeProfile.name, d.costscopeNs().value_or(0), // as it ran
                                 d.predicted->costscopeProfile.calibration});
    }
    out.byPrediction = pickAmongInstances(out.estimates, version);
    return out;
}

MultiDeviceRunReport runAndPredictOnDevices(Backend& backend, const std::string& backendName, const Graph& g,
                                            const Bindings& bindings, const std::vector<HostTensor>& inputs,
                                            const std::string& profile, const MultiDeviceRunOptions& options)
{
    MultiDeviceRunReport report;
    report.backend = backendName;
    std::vector<DeviceRun> runs = runOnDevices(backend, g, bindings, backend.devices(), inputs, options);
    report.spreads = spreadByModel(runs);
    for (DeviceRun& r : runs) {
        DeviceRunReport d{std::move(r), std::nullopt, {}, std::nullopt};
        const std::string name = profile.empty() ? calibratedProfileOf(d.run.device) : profile;
        if (auto p = predictRun(g, bindings, backendName, name)) {
            d.predicted = std::move(*p);
            if (!d.run.fusedGroups.empty())
                d.costscopeFused = priceFusedGroups(g, bindings, d.predicted->costscopeProfile, d.predicted->costscope,
                                                    d.run.fusedGroups)
                                       .cost;
        } else
            d.predictionProblem = p.error().message;
        report.devices.push_back(std::move(d));
    }
    return report;
}

} // namespace costscope
