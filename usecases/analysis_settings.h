// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/pick_rule.h"
#include "formats/costscope_document.h"
#include "ir/precision.h"
#include "ir/shape.h"

#include <string>

namespace costscope {

// What an analysis is run under: one value with one owner in the GUI (AnalysisSettingsOwner), which the toolbar,
// the Bindings dock, the sweeps, the Run panel, export and the saved document all read and write.
struct AnalysisSettings {
    std::string model = "rlx";          // cost model: "rlx" or "costscope"
    std::string device = "Cpu";         // a device or profile name (usecases/profile_resolution.h's rule)
    Bindings bindings = {{"batch", 1}}; // every symbol's value, "batch" always
    std::string precision;              // compute precision ("fp16", "tf32", ...); empty: the graph's own dtypes
    RlxVersion rlxVersion = kDefaultRlxVersion;

    std::int64_t batch() const;
    // The what-if precision the costs are priced at (edit/precision_transform.h): Fp32, the graph as it is, when
    // `precision` is empty or names none the what-if offers.
    Precision whatIfPrecision() const;
    bool operator==(const AnalysisSettings&) const = default;
};

// The document keeps the settings beside the graph (cost_model, devices, bindings, precision, rlx_version).
void storeSettings(const AnalysisSettings& settings, CostscopeDocument& doc);
// The settings a document saved; what it does not say (an older document, an unknown RLX version) stays as in
// `current`. Bindings the document names replace those of `current`, the others stay.
AnalysisSettings settingsFromDocument(const CostscopeDocument& doc, AnalysisSettings current);

} // namespace costscope
