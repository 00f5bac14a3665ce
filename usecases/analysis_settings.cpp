// SPDX-License-Identifier: MIT
#include "usecases/analysis_settings.h"

#include "edit/precision_transform.h"

#include <algorithm>

namespace costscope {

std::int64_t AnalysisSettings::batch() const
{
    const auto it = bindings.find("batch");
    return it == bindings.end() ? 1 : it->second;
}

Precision AnalysisSettings::whatIfPrecision() const
{
    const auto p = parsePrecision(precision);
    if (!p
        || std::find(std::begin(edit::kWhatIfPrecisions), std::end(edit::kWhatIfPrecisions), *p)
               == std::end(edit::kWhatIfPrecisions))
        return Precision::Fp32;
    return *p;
}

void storeSettings(const AnalysisSettings& settings, CostscopeDocument& doc)
{
    doc.costModel = settings.model;
    doc.devices = {settings.device};
    doc.bindings = settings.bindings;
    doc.precision = settings.precision;
    doc.rlxVersion = std::string(rlxVersionName(settings.rlxVersion));
}

AnalysisSettings settingsFromDocument(const CostscopeDocument& doc, AnalysisSettings current)
{
    if (!doc.costModel.empty())
        current.model = doc.costModel;
    if (!doc.devices.empty() && !doc.devices.front().empty())
        current.device = doc.devices.front();
    for (const auto& [symbol, value] : doc.bindings)
        current.bindings[symbol] = value;
    current.precision = doc.precision;
    if (auto version = parseRlxVersion(doc.rlxVersion, "rlx_version"))
        current.rlxVersion = *version;
    return current;
}

} // namespace costscope
