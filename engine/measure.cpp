// SPDX-License-Identifier: MIT
#include "measure.h"

#include <algorithm>
#include <chrono>

namespace costscope {

TimingStats TimingStats::of(std::vector<std::int64_t> samples)
{
    TimingStats s;
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.runs = static_cast<int>(samples.size());
    const std::size_t n = samples.size();
    s.medianNs = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    s.minNs = samples.front();
    s.maxNs = samples.back();
    s.spread = s.medianNs > 0 ? double(s.maxNs - s.minNs) / double(s.medianNs) : 0.0;
    return s;
}

namespace {
// Each node's median time over instrumented runs of one plan (every run lists the same nodes in the same order).
std::vector<NodeTiming> medianPerNode(std::vector<std::vector<NodeTiming>> runs)
{
    std::vector<NodeTiming> out = std::move(runs.front());
    std::vector<std::int64_t> ns(runs.size());
    for (std::size_t i = 0; i < out.size() && runs.size() > 1; ++i) {
        ns[0] = out[i].ns;
        for (std::size_t r = 1; r < runs.size(); ++r)
            ns[r] = i < runs[r].size() ? runs[r][i].ns : out[i].ns;
        out[i].ns = TimingStats::of(ns).medianNs;
    }
    return out;
}
} // namespace

Result<std::unique_ptr<ExecutablePlan>> preparePlan(Backend& backend, const Graph& g, const Bindings& bindings,
                                                    DeviceIndex device, const std::vector<HostTensor>& inputs)
{
    auto plan = backend.compile(g, bindings, device);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    if (auto r = (*plan)->setInputs(inputs); !r)
        return r.error();
    return std::move(*plan);
}

Result<RunResult> measure(ExecutablePlan& plan, const MeasureOptions& options)
{
    using Clock = std::chrono::steady_clock;
    RunResult result;
    for (int i = 0; i < options.warmupRuns; ++i)
        if (auto r = plan.run(options.cancel); !r)
            return r.error();
    std::vector<std::int64_t> samples;
    const int timedRuns = std::max(options.timedRuns, 1);
    for (int i = 0; i < timedRuns; ++i) {
        const auto t0 = Clock::now();
        if (auto r = plan.run(options.cancel); !r)
            return r.error();
        samples.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        if (options.progress)
            options.progress(i + 1, timedRuns);
    }
    result.whole = TimingStats::of(std::move(samples));
    if (options.perNode) {
        std::vector<std::vector<NodeTiming>> runs;
        const auto t0 = Clock::now();
        do {
            auto timings = plan.runInstrumented(options.cancel);
            if (!timings)
                return timings.error();
            runs.push_back(std::move(*timings));
        } while (static_cast<int>(runs.size()) < options.instrumentedRuns
                 && std::chrono::duration<double>(Clock::now() - t0).count() < options.instrumentedBudgetS);
        result.perNode = medianPerNode(std::move(runs));
    }
    auto outputs = plan.readOutputs();
    if (!outputs)
        return outputs.error();
    result.outputs = std::move(*outputs);
    return result;
}

} // namespace costscope
