// SPDX-License-Identifier: MIT
#pragma once
// The roofline of a device and where each node sits under it (the GUI's Roofline chart).

#include "analysis/cost_model.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace costscope {

struct RooflinePoint {
    std::size_t index = 0; // graph position
    NodeId id = 0;
    double intensity = 0;                 // FLOP per byte moved
    double predictedGflops = 0;           // FLOPs over the predicted time
    std::optional<double> measuredGflops; // FLOPs over the measured time, where the node was timed
};

struct Roofline {
    double peakGflops = 0;             // the compute roof: the profile's fp32 peak, else its sgemm rate
    double bandwidthGBps = 0;          // the memory roof's slope: the profile's memory bandwidth (bytes per ns)
    std::vector<RooflinePoint> points; // graph order
    std::size_t leftOut = 0;           // costed nodes without FLOPs or bytes: no place on log axes

    // Where the roofs meet (FLOP per byte); 0 without a bandwidth.
    double ridgeIntensity() const;
    // The best rate a node of this intensity can reach: min(peak, intensity × bandwidth).
    double attainableGflops(double intensity) const;
};

// Every costed node of `cost` (the Costscope model's FLOPs and bytes) under `profile`'s roofs; `measuredNs` per
// graph position (nullopt: not timed; may be empty) adds the rate each node reached in a run.
Roofline rooflineOf(const GraphCost& cost, const DeviceProfile& profile,
                    const std::vector<std::optional<double>>& measuredNs = {});

} // namespace costscope
