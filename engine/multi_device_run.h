// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "measure.h"

#include <optional>
#include <string>
#include <vector>

namespace costscope {

// One device's share of a run on every device of a backend (costscope-cli run --device all).
struct DeviceRun {
    DeviceInfo device;
    std::optional<TimingStats> isolated;   // the device alone: the others wait
    std::optional<TimingStats> concurrent; // every device that ran isolated runs at once
    // The node ids of each kernel that ran several nodes (fusedGroupsOf of one instrumented run after the timed
    // ones), so that the prediction prices the plan the device ran, not the unfused graph.
    std::vector<std::vector<NodeId>> fusedGroups;
    std::string error; // the first failure ("compile: ...", "isolated run: ...", "concurrent run: ..."); empty if none

    bool failed() const { return !isolated.has_value(); }
};

struct MultiDeviceRunOptions {
    MeasureOptions measure; // its progress callback is not called (the devices' threads would race on it)
    bool concurrent = true; // also the contention phase
    bool kernels = true;    // one instrumented run at the end: which nodes ran as one kernel (DeviceRun::fusedGroups)
};

// Compiles the graph once per device, each on a thread of its own that owns that device's plan (and with it the
// device's context) from compile to destruction; runs the devices one after another, then all at once, started
// together. Every device gets an entry, in `devices` order: one that fails (compile error, out of memory, a lost
// device, an exception) keeps its error there and does not stop the others. `inputs`: one tensor per plan input;
// empty: arange inputs (see synthetic.h).
std::vector<DeviceRun> runOnDevices(Backend& backend, const Graph& g, const Bindings& bindings,
                                    const std::vector<DeviceInfo>& devices, const std::vector<HostTensor>& inputs,
                                    const MultiDeviceRunOptions& options);

// How far apart the isolated medians of devices of one model (same name) are: max/min - 1.
struct ModelSpread {
    std::string model;
    int devices = 0;                  // the devices of that model that ran
    double isolated = 0;              // 0 for one device
    std::optional<double> concurrent; // where each of them ran concurrently too
};
// One entry per model with at least one device that ran, in order of first appearance.
std::vector<ModelSpread> spreadByModel(const std::vector<DeviceRun>& runs);

} // namespace costscope
