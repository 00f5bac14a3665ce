// SPDX-License-Identifier: MIT
#pragma once
// costscope-cli run --fusion compare: the graph unfused and fused in one call, and for each fused kernel the
// measured gain beside the predicted ones (engine/fusion_verified.h), as text or JSON.

#include "analysis/run_predictions.h"
#include "backend.h"
#include "fusion_verified.h"

#include <nlohmann/json.hpp>

#include <string>

namespace costscope::cli {

struct FusionCompareRequest {
    std::string file;
    const Graph* graph = nullptr;
    Bindings bindings;
    DeviceInfo device;
    std::vector<HostTensor> inputs; // empty: arange inputs
    MeasureOptions measure;
    const RunPredictions* predictions = nullptr; // the Costscope profile and estimate the what-if prices with
    bool json = false;
};

// Measures, verifies and prints; exit 3 when the backend does not fuse a graph it could (CPU, Vulkan) or a run fails.
int runFusionCompare(Backend& backend, const FusionCompareRequest& request);

nlohmann::ordered_json fusionVerificationJson(const Graph& g, const FusionCompareRequest& request,
                                              const FusionVerification& v);
// The text form, from the JSON (as printRunText, so that a remote compare reads the same).
void printFusionCompareText(const nlohmann::ordered_json& j);

} // namespace costscope::cli
