// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/instance_pick.h"
#include "analysis/run_predictions.h"
#include "multi_device_run.h"

#include <optional>
#include <string>
#include <vector>

namespace costscope {

// One device of a run on every device of a backend, beside the prediction under that device's calibration.
struct DeviceRunReport {
    DeviceRun run;
    std::optional<RunPredictions> predicted;
    std::string predictionProblem; // why there is no prediction (a profile that cannot be read)
    // The Costscope prediction of the plan as the device ran it: each kernel of several nodes priced as that fused
    // kernel (priceFusedGroups); absent where no kernel ran several nodes (then predicted->costscope is the plan's).
    std::optional<GraphCost> costscopeFused;

    // concurrent / isolated median - 1, where the device ran both ways.
    std::optional<double> contention() const;
    // What the Costscope model predicts a timed run of the plan measures: the fused price where kernels fused.
    std::optional<double> costscopeNs() const;
    // The Costscope prediction's (costscopeNs) relative error against the isolated median.
    std::optional<double> costscopeError() const;
};

// What `costscope-cli run --device all` prints and the Run panel's "All <backend> devices" shows.
struct MultiDeviceRunReport {
    std::string backend;
    std::vector<DeviceRunReport> devices; // in the backend's device order, failed ones included
    std::vector<ModelSpread> spreads;

    bool allFailed() const;
};

// The pick among the devices of such a run (issue 24, as `pick --device all` makes it): RLX's rule over each device
// that ran, by its Costscope prediction under its own profile; the benchmark's view beside it, the device with the
// fastest isolated median. A failed device is in neither.
struct RunDevicePick {
    std::vector<InstanceEstimate> estimates; // the devices that ran and were predicted, in the run's order
    InstancePick byPrediction;
    std::optional<std::size_t> fastestMeasured; // index into MultiDeviceRunReport::devices
};
RunDevicePick pickAmongRunDevices(const MultiDeviceRunReport& report, RlxVersion version = kDefaultRlxVersion);

// Runs the graph on every device of the backend (runOnDevices) and predicts each under `profile`, else the device's
// own calibrated profile (calibratedProfileOf), else predictRun's choice. The use case the CLI and the GUI share.
MultiDeviceRunReport runAndPredictOnDevices(Backend& backend, const std::string& backendName, const Graph& g,
                                            const Bindings& bindings, const std::vector<HostTensor>& inputs,
                                            const std::string& profile, const MultiDeviceRunOptions& options);

} // namespace costscope
