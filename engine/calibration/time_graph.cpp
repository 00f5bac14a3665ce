// SPDX-License-Identifier: MIT
#include "calibration/time_graph.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

namespace costscope {

Result<std::unique_ptr<ExecutablePlan>> readyPlan(Backend& backend, const Graph& g, DeviceIndex device)
{
    // Microbenchmarks time one kernel per node (the dispatch probe is a chain of 64 Adds): no fusion.
    const CompileOptions saved = backend.compileOptions();
    backend.setCompileOptions({false});
    auto plan = backend.compile(g, {}, device);
    backend.setCompileOptions(saved);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : (*plan)->inputs()) {
        HostTensor t;
        t.reset(in.dims, in.dtype);
        for (float& v : t.values<float>())
            v = dist(rng);
        inputs.push_back(std::move(t));
    }
    if (auto r = (*plan)->setInputs(inputs); !r)
        return r.error();
    return std::move(*plan);
}

Result<double> timeGraph(Backend& backend, const Graph& g, int warmupRuns, int repeats,
                         const std::atomic<bool>* cancel, DeviceIndex device)
{
    using Clock = std::chrono::steady_clock;
    auto plan = readyPlan(backend, g, device);
    if (!plan)
        return plan.error();
    std::vector<double> samples;
    for (int i = 0; i < warmupRuns + repeats; ++i) {
        const auto t0 = Clock::now();
        if (auto r = (*plan)->run(cancel); !r)
            return r.error();
        const double ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        if (i >= warmupRuns)
            samples.push_back(ns);
    }
    if (samples.empty())
        return 0.0;
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

} // namespace costscope
