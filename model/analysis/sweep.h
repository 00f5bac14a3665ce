// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "ir/diagnostic.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

inline constexpr std::size_t kMaxSweepValues = 4096;

// "1,2,4", "1:65536:x2" (geometric: start, end inclusive, factor) or "1:64:+8" (arithmetic); values ≥ 0,
// at most kMaxSweepValues.
Result<std::vector<std::int64_t>> parseSweepValues(std::string_view text);

// An extra curve evaluated at every sweep value (e.g. a fusion gate score per target).
struct SweepSeries {
    std::string label;
    std::function<double(const Bindings&)> evaluate;
};

struct SweepRequest {
    std::string symbol = "batch";
    std::vector<std::int64_t> values;
    Bindings base;                       // other symbols, fixed
    std::vector<DeviceProfile> profiles; // one curve per profile
    bool keepNodeCosts = false;
    std::vector<SweepSeries> series;
};

// Where the cheapest profile changes from `from` to `to` between two sweep values.
struct Crossover {
    std::size_t from = 0, to = 0; // profile indices
    double at = 0;                // equal-cost point, interpolated in log space between the two sweep values
    std::int64_t firstValue = 0;  // first sweep value where `to` is the pick
    std::string text;             // "Cuda beats Cpu from batch 48"
};

struct SweepResult {
    std::vector<std::int64_t> values;
    std::vector<std::vector<double>> totalNs;        // [value][profile]
    std::vector<std::vector<GraphCost>> costs;       // [value][profile], when keepNodeCosts
    std::vector<std::size_t> pick;                   // per value: the cheapest profile (first wins ties)
    std::vector<Crossover> crossovers;
    std::vector<std::vector<double>> seriesValues;   // [series][value]
    std::vector<std::vector<NodeId>> skipped;        // per value: nodes no profile could cost
    bool cancelled = false;                          // results past the cancellation are zero
};

// Evaluates every (value, profile) pair on a thread pool sized to the hardware; results do not depend on the
// thread count or scheduling. `cancel` (optional) is polled between evaluations.
SweepResult runSweep(const Graph& g, const CostModel& model, const SweepRequest& request,
                     const std::atomic<bool>* cancel = nullptr);

// Crossovers of a finished sweep (also filled by runSweep); labels name the profiles in the text.
std::vector<Crossover> findCrossovers(const std::vector<std::int64_t>& values,
                                      const std::vector<std::vector<double>>& totalNs,
                                      const std::vector<std::size_t>& pick, const std::vector<std::string>& labels,
                                      const std::string& symbol);

} // namespace costscope
