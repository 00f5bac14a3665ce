// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device.h"
#include "backend.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace costscope::cli {

// RLX's benchmark pick on this machine: a device is timed by running the whole graph on the engine backend that
// drives it (Cpu → cpu, Cuda → cuda, Vulkan → vulkan, where this build has them and the machine has the device).
// Each device's graph is compiled, given its parameters and arange inputs and warmed up once on first use.
class LocalBenchmark {
public:
    LocalBenchmark(const Graph& g, Bindings bindings);
    ~LocalBenchmark();

    // One timed whole-graph run on `d`, in ns; nullopt when `d` cannot be run here (failures() says why).
    std::optional<double> run(Device d);
    // Per device that could not be benchmarked: why ("no local backend in this build", the compile error, ...).
    const std::map<Device, std::string>& failures() const { return m_failures; }

private:
    struct Plan;
    const Graph& m_graph;
    Bindings m_bindings;
    std::map<Device, std::unique_ptr<Plan>> m_plans;
    std::map<Device, std::string> m_failures;
};

} // namespace costscope::cli
