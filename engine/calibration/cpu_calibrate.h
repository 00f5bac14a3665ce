// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "analysis/op_cost.h"
#include "ir/diagnostic.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
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
    // How the backend's own kernels run, for the pricing that follows them (DeviceProfile's CPU fields):
    std::vector<BandwidthPoint> copyBwBySize;   // a Relu over growing tensors, by bytes read + written
    std::map<std::string, double> kernelGflops; // by op kind: the cost model's FLOPs of a micro-graph / its time
    // The same kernels at two or three sizes (one under the backend's parallel grain); kernelGflops is the largest.
    std::map<std::string, std::vector<KernelRatePoint>> kernelGflopsBySize;
    struct ConvPoint {
        OpWork::PerSample lowering; // the cost model's view of the layer run per sample
        double ns = 0;
    };
    std::vector<ConvPoint> conv;                // Conv layers typical of CNNs, one sample
    double viewCopyBw = 0;                      // bytes/ns (read + written), a Reshape (the backend copies)
    HostProbe probe;                            // reference times, the mean of before and after the figures
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
// bandwidth as memory bandwidth (and by size), the kernel rates, the im2col rate that explains the Conv layers
// run per sample, the view copy rate. `host`, `date` and the measuring `tool` go into the source line.
DeviceProfile profileFromCpuCalibration(const CpuCalibration& c, const std::string& name, const std::string& host,
                                        const std::string& date, const std::string& tool);

} // namespace costscope
