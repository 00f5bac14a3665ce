// SPDX-License-Identifier: MIT
#pragma once

#include "ir/graph.h"

#include <cstdint>
#include <vector>

namespace costscope {

// RLX's static IO profile of one forward pass (cost-model.md §2).
struct IoProfile {
    std::uint64_t kernelLaunches = 0;
    std::uint64_t syncPoints = 0;
    std::uint64_t hostOutputBytes = 0;
    std::uint64_t deviceTrafficBytes = 0;

    // host_readback_bytes(unified): host_output_bytes, plus device_traffic_bytes / 4 when not unified.
    std::uint64_t hostReadbackBytes(bool unified) const
    {
        return unified ? hostOutputBytes : hostOutputBytes + deviceTrafficBytes / 4;
    }
    friend bool operator==(const IoProfile&, const IoProfile&) = default;
};

struct IoProfileOptions {
    bool fftHostSync = false;
};

IoProfile ioProfile(const Graph& g, const Bindings& b = {}, IoProfileOptions o = {});
// The "selected outputs" variant: host_output_bytes = Σ elements×4 over the chosen output indices only.
IoProfile ioProfileSelected(const Graph& g, const std::vector<std::size_t>& outputIndices, const Bindings& b = {},
                            IoProfileOptions o = {});

} // namespace costscope
