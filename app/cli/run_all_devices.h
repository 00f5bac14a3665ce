// SPDX-License-Identifier: MIT
#pragma once

#include "backend.h"
#include "measure.h"

#include <string>
#include <vector>

namespace costscope::cli {

// What `costscope-cli run FILE --device all` needs from run's own settings.
struct AllDevicesRun {
    std::string file, backend, profile; // profile: --profile, else each device's calibrated profile
    Bindings bindings;
    std::vector<HostTensor> inputs; // the --input files; empty: arange inputs
    MeasureOptions measure;
    bool json = false;
};

// Runs the graph on every device of `backend`, isolated and then concurrently, and prints per device the measured
// and predicted times and the spread between devices of one model. Exit code 3 only when every device failed (or
// there is none); the failed ones are named with their error either way.
int runOnAllDevices(Backend& backend, const Graph& g, const AllDevicesRun& run);

} // namespace costscope::cli
