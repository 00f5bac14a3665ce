// SPDX-License-Identifier: MIT
#pragma once

#include "multi_device_run_report.h"

#include <atomic>
#include <memory>

namespace costscope {

// What the Run panel's "All <backend> devices" asks for: the open graph with the window's bindings on every device
// of one backend, `runs` timed runs each, isolated and then all at once.
struct AllDevicesRequest {
    std::shared_ptr<const Graph> graph;
    Bindings bindings;
    std::string backend = "cuda";
    int runs = 10;
};

// On the calling (worker) thread: runAndPredictOnDevices on the named backend (the CLI's `run --device all`).
// `cancel` ends the timed runs early; an error only when nothing could run (no such backend, no device, a graph
// without its weights). One device's failure is in its entry, by name.
Result<MultiDeviceRunReport> runOnAllDevicesOf(const AllDevicesRequest& request, const std::atomic<bool>* cancel);
// The same on a backend the caller holds (tests hand in a fake one of several devices).
Result<MultiDeviceRunReport> runOnAllDevicesOf(const AllDevicesRequest& request, Backend& backend,
                                               const std::atomic<bool>* cancel);

} // namespace costscope
