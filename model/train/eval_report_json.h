// SPDX-License-Identifier: MIT
#pragma once
// The JSON of an evaluation report (costscope-cli evaluate --json), written by the CLI and read back by the GUI from
// a remote host's evaluate:
//   {"backend", "device", "profile", "protocol", "families": [...], "models": [{"model", "graphs": STATS, "nodes":
//    STATS}], "by_family": [{"model", "family", "graphs", "nodes"}], "worst": [PREDICTION], "worst_nodes": [...],
//    "predictions": [PREDICTION], "nodes": [...] (with allNodes), "notes": [...]}   STATS: {"count", "within_10",
//    "within_25", "mape"}
#include "train/family_holdout.h"

#include <nlohmann/json.hpp>

#include <string>

namespace costscope {

struct EvaluationReportHeader {
    std::string backend, device, profile, protocol = "leave-one-family-out";
    bool allNodes = false; // "nodes": every scored node of the learned model (evaluate --all-nodes)
};

nlohmann::ordered_json evaluationReportJson(const EvaluationReport& report, const EvaluationReportHeader& header);
// `origin` names the source in messages (a host's evaluate).
Result<EvaluationReport> parseEvaluationReport(const nlohmann::ordered_json& j, const std::string& origin,
                                               EvaluationReportHeader* header = nullptr);

} // namespace costscope
