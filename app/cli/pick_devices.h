// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_policy.h"
#include "ir/graph.h"

#include <string>

namespace costscope::cli {

// What `costscope-cli pick FILE --device all|ID,...` needs from pick's own settings.
struct DevicesPick {
    std::string spec;    // --device: "all" (every local GPU) or ids ("cuda:0,cuda:1,cpu:0")
    std::string setName; // --profiles: the RLX parity set a device with no profile of its own falls back to
    DevicePolicy policy; // allow/deny by kind, prefer order, RLX version, cost model or benchmark:N
    Bindings bindings;
    bool json = false;
};

// The pick among this machine's devices (each under its own calibrated profile, else its datasheet preset, else the
// parity profile of its kind): prints every candidate with its profile and estimate, and which one is picked and why.
// With the benchmark strategy the allowed devices are timed for real (each alone, on a thread of its own) and the
// fastest median wins; the cost model decides when none runs. Exit 3 for a device spec naming no local device.
int pickAmongLocalDevices(const Graph& g, const DevicesPick& pick);

} // namespace costscope::cli
