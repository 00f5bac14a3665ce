// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "analysis/piecewise_linear.h"
#include "ir/graph.h"

#include <map>
#include <optional>
#include <string>

namespace costscope {

// The profile's measured rate (GFLOP/s) of the backend kernel that runs a node, for the Costscope model, or none.
// The full label of an Activation or Binary op ("Activation.Tanh", "Binary.Pow") takes precedence over its kind:
// they differ by 100× (a vectorised Relu against a libm erf or pow). Where the key was measured at several sizes
// (kernelGflopsBySize) the rate follows the node's FLOPs, piecewise-linear in log FLOPs and clamped at the ends: a
// kernel under the backend's parallel grain runs on one thread, at half the rate on two cores. Otherwise the one
// rate of kernelGflops. Profiles without kernel rates cost no lookup.
class KernelRate {
public:
    explicit KernelRate(const DeviceProfile& p);
    std::optional<double> at(const Node& node, double flops) const { return at(node.op, flops); }
    std::optional<double> at(const Op& op, double flops) const;

private:
    std::optional<double> find(const std::string& key, double flops) const;

    const DeviceProfile& m_profile;
    std::map<std::string, PiecewiseLinear> m_bySize; // GFLOP/s by log FLOPs
};

} // namespace costscope
