// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "backend.h"

#include <atomic>
#include <functional>
#include <string>

namespace costscope {

// What `costscope-cli calibrate` and the GUI's "Calibrate this device" measure: one device of a backend built
// into this binary, through the backend's own kernels.
struct DeviceCalibrationOptions {
    std::string backend = "cpu"; // cpu, cuda, vulkan
    DeviceIndex device = 0;
    bool quick = false;          // fewer shapes and smaller buffers (and, on Vulkan, batch-1 Conv layers only)
    int repeats = 0;             // CPU: timed runs per figure (the median is kept); 0: the calibration's own (7)
    std::string name;            // the profile's name; empty: calibrated-<backend>
    std::string tool = "costscope-cli calibrate"; // who measured, for the profile's source line
    const std::atomic<bool>* cancel = nullptr;        // checked between figures (CPU: inside them too)
    std::function<void(int done, int total)> progress; // on the calibrating thread, after each figure
};

struct DeviceCalibration {
    DeviceProfile profile;
    std::string figures; // the measured figures, one per line, for people
};

Result<DeviceCalibration> calibrateDevice(const DeviceCalibrationOptions& options);
// True when `backend` is built into this binary and has a calibration.
bool canCalibrate(const std::string& backend);

} // namespace costscope
