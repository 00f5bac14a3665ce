// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "analysis/pick_rule.h"
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
    // What the crossover texts call each profile (the chart's series names, "apple-m3-max"); empty: the profiles'
    // own labels.
    std::vector<std::string> labels;
    bool keepNodeCosts = false;
    std::vector<SweepSeries> series;
    // Whose pick: RLX 0.2.16 does not pick Uncalibrated profiles unless every profile is Uncalibrated.
    RlxVersion rlxVersion = kDefaultRlxVersion;
};

// Where the cheapest profile changes from `from` to `to` between two sweep values.
struct Crossover {
    std::size_t from = 0, to = 0; // profile indices
    double at = 0;                // equal-cost point, interpolated in log space between the two sweep values
    std::int64_t firstValue = 0;  // first sweep value where `to` is the pick
    std::string text;             // "Cuda beats Cpu from batch 48"
    // False for a crossover of the cheapest profile of all that the pick does not follow (an Uncalibrated profile
    // under RLX 0.2.16): drawn and labelled, never picked.
    bool picked = true;
};

struct SweepResult {
    std::vector<std::int64_t> values;
    std::vector<std::vector<double>> totalNs;        // [value][profile]
    std::vector<std::vector<GraphCost>> costs;       // [value][profile], when keepNodeCosts
    std::vector<std::size_t> pick;                   // per value: the cheapest ranked profile (first wins ties)
    std::vector<bool> ranked;                        // per profile: whether the request's RLX version ranks it
    std::vector<Crossover> crossovers;               // the pick's, then those it does not follow, by value
    std::vector<std::vector<double>> seriesValues;   // [series][value]
    std::vector<std::vector<NodeId>> skipped;        // per value: nodes no profile could cost
    bool cancelled = false;                          // results past the cancellation are zero
};

// Evaluates every (value, profile) pair on a thread pool sized to the hardware; results do not depend on the
// thread count or scheduling. `cancel` (optional) is polled between evaluations.
SweepResult runSweep(const Graph& g, const CostModel& model, const SweepRequest& request,
                     const std::atomic<bool>* cancel = nullptr);

// Per value, the cheapest profile among those `ranked` (first wins ties).
std::vector<std::size_t> sweepPicks(const std::vector<std::vector<double>>& totalNs, const std::vector<bool>& ranked);

// Crossovers of a finished sweep (also filled by runSweep); labels name the profiles in the text.
std::vector<Crossover> findCrossovers(const std::vector<std::int64_t>& values,
                                      const std::vector<std::vector<double>>& totalNs,
                                      const std::vector<std::size_t>& pick, const std::vector<std::string>& labels,
                                      const std::string& symbol);
// The crossovers of `cheapest` (the cheapest of all profiles per value) where `pick` does not follow it, with
// picked = false and `why` ("Cuda is Uncalibrated") in the text.
std::vector<Crossover> unpickedCrossovers(const std::vector<std::int64_t>& values,
                                          const std::vector<std::vector<double>>& totalNs,
                                          const std::vector<std::size_t>& pick,
                                          const std::vector<std::size_t>& cheapest,
                                          const std::vector<std::string>& labels, const std::string& symbol,
                                          const std::function<std::string(std::size_t from, std::size_t to)>& why);

} // namespace costscope
