// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/gemm_rate.h"
#include "backend.h"
#include "calibration/micro_graphs.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace costscope {

// A backend's Conv timed at one layer, with the layer's implicit GEMM (m = batch·output pixels,
// k = Cin·kernel², n = Cout).
struct ConvPoint {
    std::string shape; // "b8 c64x56x56 k64 3x3 s1"
    std::int64_t m = 0, n = 0, k = 0;
    double seconds = 0;
    double flopsPerSecond = 0;
};

// ResNet stems, 3x3 and 1x1 blocks, VGG's wide early layers, AlexNet's 11x11 stride 4 and SqueezeNet's fire
// modules, at the batches the accuracy bench uses (1, 8, 64).
std::span<const ConvLayer> typicalConvLayers();
// The same layers at batch 1 only: what a CPU-side Vulkan driver (lavapipe) can time in seconds.
std::span<const ConvLayer> quickConvLayers();

// The backend's own Conv lowering at each layer on `device`: the median of `repeats` instrumented runs. With
// `inGraph` > 1 the graph holds that many Convs of the same input and the first is not counted; with
// `warmupElements` > 0 it starts with warmupGraph's chain over that many floats (a GPU idle between submissions
// clocks down: see micro_graphs.h).
Result<std::vector<ConvPoint>> timeConvLayers(Backend& backend, DeviceIndex device, std::span<const ConvLayer> layers,
                                              int repeats, int inGraph = 1, std::int64_t warmupElements = 0);

// The im2col rate (column bytes per ns) that explains the measured Conv nodes best: each takes its GEMM's time
// at `gemm`'s rate plus 4·m·k column bytes at that rate; least squares through the origin on what the GEMM
// leaves. 0 when there are no points or the GEMM explains them all.
double fitIm2colRate(const std::vector<ConvPoint>& points, const GemmRate& gemm);

} // namespace costscope
