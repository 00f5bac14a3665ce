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
        auto timings = plan.runInstrumented(options.cancel);
        if (!timings)
            return timings.error();
        result.perNode = std::move(*timings);
    }
    auto outputs = plan.readOutputs();
    if (!outputs)
        return outputs.error();
    result.outputs = std::move(*outputs);
    return result;
}

} // namespace costscope
