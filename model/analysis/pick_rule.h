// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/calibration_tag.h"
#include "ir/diagnostic.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// The RLX release whose device-pick rule Costscope follows. RLX 0.2.14 ranks every model by its estimate;
// RLX 0.2.16 leaves Uncalibrated models out of the ranking unless every candidate is Uncalibrated
// (cost-model.md §3). Costs are the same under both; only picks differ. Users of either RLX check their picks
// by naming theirs.
enum class RlxVersion { V0_2_14, V0_2_16 };
inline constexpr RlxVersion kDefaultRlxVersion = RlxVersion::V0_2_16;

std::string_view rlxVersionName(RlxVersion v); // "0.2.14", "0.2.16"
// "0.2.14" or "0.2.16" (a leading "v" is accepted); `what` (the option or setting) names the error.
Result<RlxVersion> parseRlxVersion(std::string_view text, std::string_view what);
std::vector<RlxVersion> rlxVersions();

// Per candidate (by its model's tag), whether the pick of `version` ranks it.
std::vector<bool> rankedByPick(const std::vector<Calibration>& tags, RlxVersion version);

// The index of the lowest of `totals` among those `ranked` (first wins ties); nullopt when none is ranked.
std::optional<std::size_t> cheapestRanked(const std::vector<double>& totals, const std::vector<bool>& ranked);

// The pick among candidates with these totals and tags under `version`, and which of them it ranked.
struct RuledPick {
    std::optional<std::size_t> pick; // nullopt when there are no candidates
    std::vector<bool> ranked;        // per candidate
};
RuledPick pickByRule(const std::vector<double>& totals, const std::vector<Calibration>& tags, RlxVersion version);
// pickByRule over candidates of any type, given how to read each one's total and tag.
template <class Candidate, class TotalOf, class TagOf>
RuledPick pickByRuleOver(const std::vector<Candidate>& candidates, TotalOf totalOf, TagOf tagOf, RlxVersion version)
{
    std::vector<double> totals;
    std::vector<Calibration> tags;
    for (const Candidate& c : candidates) {
        totals.push_back(totalOf(c));
        tags.push_back(tagOf(c));
    }
    return pickByRule(totals, tags, version);
}

// Why a candidate that rankedByPick() leaves out was left out, for device reports and tooltips:
// "left out of the ranking: Uncalibrated model (RLX 0.2.16 ranks Uncalibrated models only when every candidate
// is Uncalibrated)".
std::string leftOutReason(Calibration tag, RlxVersion version);

} // namespace costscope
