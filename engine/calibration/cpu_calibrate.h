// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "ir/diagnostic.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace costscope {

// Microbenchmark figures of the host CPU, measured through the CPU backend's own plans so that the profile
// describes what Costscope's engine reaches, not what the hardware could.
struct CpuCalibration {
    std::string device;                 // the backend's device name
    std::vector<SgemmPoint> sgemm;      // MatMul plans over the shape grid, random data
    double readBw = 0;                  // bytes/ns, a Sum reduction over a large tensor
    double writeBw = 0;                 // bytes/ns, Expand of one value over a large tensor
    double copyBw = 0;                  // bytes/ns (read + written), an element-wise Relu over a large tensor
    double dispatchNs = 0;              // per extra node: (chain of N tiny nodes - 1 node) / (N - 1)
    double roundtripNs = 0;             // one whole-graph run of a single tiny node
    double hostReadbackBw = 0;          // bytes/ns, memcpy of a large buffer (the CPU "reads back" by copying)
    int numThreads = 1;
};

struct CpuCalibrationOptions {
    bool quick = false;                 // a small shape grid and smaller buffers
    int warmupRuns = 2;
    int repeats = 7;                    // timed runs per figure; the median is kept
    const std::atomic<bool>* cancel = nullptr;      // checked between and inside the timed runs
    std::function<void(int done, int total)> progress; // called on the calibrating thread after each figure
};

// The shape grid: square sizes 16..1024 and skinny shapes (m or n small); `quick` keeps a subset.
std::vector<SgemmPoint> cpuSgemmGrid(bool quick);

Result<CpuCalibration> calibrateCpu(const CpuCalibrationOptions& options = {});

// A Costscope device profile from the figures: sgemm table, best sgemm rate as the flat and peak rate, copy
// bandwidth as memory bandwidth. `host`, `date` and the measuring `tool` go into the source line.
DeviceProfile profileFromCpuCalibration(const CpuCalibration& c, const std::string& name, const std::string& host,
                                        const std::string& date, const std::string& tool);

} // namespace costscope
