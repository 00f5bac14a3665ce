// SPDX-License-Identifier: MIT
#pragma once
// The evaluation that cannot flatter us (issue 20): measured runs of whole model families, each family predicted by
// predictors trained only on the other families' kernels (leave-one-family-out), beside RLX parity, the analytic
// Costscope model, and the per-class corrections of `fit` fitted the same way.
#include "analysis/calibration_fit.h"
#include "analysis/profile_fit.h"
#include "train/kernel_predictor_train.h"

#include <string>
#include <vector>

namespace costscope {

struct EvalRun {
    std::string family, graph;
    std::int64_t batch = 0;
    MeasuredRun run;
};

// One graph's prediction by one model.
struct EvalPrediction {
    std::string model, family, graph;
    std::int64_t batch = 0;
    double predictedNs = 0, measuredNs = 0;
    double error() const { return measuredNs > 0 ? predictedNs / measuredNs - 1 : 0; }
};

// One node's miss by the learned model: where the whole-graph error comes from.
struct NodeMiss {
    std::string family, graph, op;
    std::int64_t batch = 0;
    NodeId node = 0;
    double predictedNs = 0, measuredNs = 0;
};

struct ModelAccuracy {
    std::string model; // "rlx parity", "costscope analytic", "costscope class-corrected", "costscope learned"
    ErrorStats graphs, nodes;
};

// One model's accuracy on one held-out family: which families a whole-table figure hides.
struct FamilyAccuracy {
    std::string model, family;
    ErrorStats graphs, nodes;
};

struct EvaluationReport {
    std::vector<std::string> families;
    std::vector<ModelAccuracy> models;
    std::vector<FamilyAccuracy> byFamily;    // every model on every family, in the order of `families`
    std::vector<EvalPrediction> predictions; // every graph under every model
    std::vector<EvalPrediction> worst;       // the largest |error| of the learned model, up to 10
    std::vector<NodeMiss> worstNodes;        // the learned model's largest |predicted - measured| nodes, up to 20
    std::vector<NodeMiss> nodes;             // every scored node of the learned model, in run order
    std::vector<std::string> notes;          // classes left without a predictor, and why
};

// Runs of the sampler graphs (family kSamplerFamily, zoo/kernel_sampler.h) are training data for every held-out
// family and are never scored themselves.
// `calibrated` is the device's calibrated profile (its corrections and predictors are ignored: each is refitted
// without the family it predicts); `rlx` the RLX parity profile of the same device. At least two families.
Result<EvaluationReport> evaluateLeaveFamilyOut(const std::vector<EvalRun>& runs, const DeviceProfile& calibrated,
                                                const DeviceProfile& rlx, const PredictorTrainOptions& options = {});

// Every scored run predicted by `profile` as it is, nothing refitted: the protocol for a device that was never
// measured (a transferred profile, analysis/device_transfer.h, judged on the target's runs). "costscope learned" is
// the profile with its predictors and composition; analytic and class-corrected drop them as above.
Result<EvaluationReport> evaluateProfileAsIs(const std::vector<EvalRun>& runs, const DeviceProfile& profile,
                                             const DeviceProfile& rlx);

// The profile with predictors trained on every run (what calibrate stores), and what training left out.
Result<DeviceProfile> withTrainedPredictors(const DeviceProfile& calibrated, const std::vector<EvalRun>& runs,
                                            const PredictorTrainOptions& options, std::vector<std::string>* notes);

} // namespace costscope
