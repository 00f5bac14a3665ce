// SPDX-License-Identifier: MIT
#pragma once
// How a device's kernel times add up to a whole graph's time. Per-node times are taken one kernel at a time; the
// whole graph runs as one submission (a CUDA graph, one Vulkan command buffer), where launches overlap the previous
// kernel's tail and small kernels pipeline. Fitted from measured graphs (calibrate, and each held-out family of
// evaluate): whole ≈ kernelScale · Σ kernel ns + perKernelNs · kernels + fixedNs. Invalid (the default): the model
// adds the nodes and the round trip as before.
#include <vector>

namespace costscope {

struct GraphComposition {
    double kernelScale = 0;
    double perKernelNs = 0;
    double fixedNs = 0;
    bool valid() const { return kernelScale > 0; }
    // The whole graph from its kernels' sum and count; never under half the sum (a fit's negative per-kernel term
    // must not take a long graph to nothing).
    double wholeNs(double kernelNs, double kernels) const;
};

struct CompositionSample {
    double kernelNs = 0; // Σ of the model's per-kernel predictions (no round trip, sync or readback)
    double kernels = 0;  // kernels launched
    double measuredNs = 0;
};

// Least squares on the relative error; invalid when there are fewer than 6 samples or the fit is unphysical (a
// scale outside 0.3..3 or a negative fixed cost).
GraphComposition fitGraphComposition(const std::vector<CompositionSample>& samples);

} // namespace costscope
