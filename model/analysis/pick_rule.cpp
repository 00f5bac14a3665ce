// SPDX-License-Identifier: MIT
#include "analysis/pick_rule.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace costscope {

namespace {
std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
} // namespace

std::string_view calibrationName(Calibration c)
{
    switch (c) {
    case Calibration::Measured: return "Measured";
    case Calibration::ArchDefault: return "ArchDefault";
    case Calibration::Uncalibrated: return "Uncalibrated";
    }
    return "ArchDefault";
}

std::optional<Calibration> parseCalibration(std::string_view text)
{
    for (Calibration c : {Calibration::Measured, Calibration::ArchDefault, Calibration::Uncalibrated})
        if (lower(text) == lower(calibrationName(c)))
            return c;
    return std::nullopt;
}

std::string_view rlxVersionName(RlxVersion v)
{
    return v == RlxVersion::V0_2_14 ? "0.2.14" : "0.2.16";
}

std::vector<RlxVersion> rlxVersions()
{
    return {RlxVersion::V0_2_16, RlxVersion::V0_2_14};
}

Result<RlxVersion> parseRlxVersion(std::string_view text, std::string_view what)
{
    std::string_view t = text;
    if (!t.empty() && (t.front() == 'v' || t.front() == 'V'))
        t.remove_prefix(1);
    for (RlxVersion v : rlxVersions())
        if (t == rlxVersionName(v))
            return v;
    return Diagnostic::error(std::string(what) + ": unknown RLX version '" + std::string(text)
                             + "': expected 0.2.16 (Uncalibrated models left out of the pick) or 0.2.14 (every "
                               "model ranked)");
}

std::vector<bool> rankedByPick(const std::vector<Calibration>& tags, RlxVersion version)
{
    const bool allUncalibrated =
        std::all_of(tags.begin(), tags.end(), [](Calibration c) { return c == Calibration::Uncalibrated; });
    std::vector<bool> ranked;
    for (Calibration c : tags)
        ranked.push_back(version == RlxVersion::V0_2_14 || allUncalibrated || c != Calibration::Uncalibrated);
    return ranked;
}

std::optional<std::size_t> cheapestRanked(const std::vector<double>& totals, const std::vector<bool>& ranked)
{
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < totals.size() && i < ranked.size(); ++i)
        if (ranked[i] && (!best || totals[i] < totals[*best]))
            best = i;
    return best;
}

RuledPick pickByRule(const std::vector<double>& totals, const std::vector<Calibration>& tags, RlxVersion version)
{
    RuledPick r;
    r.ranked = rankedByPick(tags, version);
    r.pick = cheapestRanked(totals, r.ranked);
    return r;
}

std::string leftOutReason(Calibration tag, RlxVersion version)
{
    return "left out of the ranking: " + std::string(calibrationName(tag)) + " model (RLX "
         + std::string(rlxVersionName(version))
         + " ranks Uncalibrated models only when every candidate is Uncalibrated)";
}

} // namespace costscope
