// SPDX-License-Identifier: MIT
#include "evaluation/predictor_calibration.h"

#include "analysis/kernel_predictor.h"
#include "evaluation/zoo_runs.h"
#include "train/family_holdout.h"
#include "train/kernel_predictor_train.h"

#include <algorithm>
#include <cstdio>

namespace costscope {

double defaultPredictorBudgetS(Device device, bool quick)
{
    const bool cpu = device == Device::Cpu;
    return quick ? (cpu ? 25 : 20) : (cpu ? 240 : 150);
}

Result<DeviceProfile> withMeasuredPredictors(Backend& backend, const DeviceProfile& profile,
                                             const PredictorCalibrationOptions& options, std::string& figures)
{
    if (!predictorTrainingAvailable())
        return Diagnostic::error("this build has no XGBoost: no kernel predictors; the analytic terms price every "
                                 "kernel");
    const bool cpu = profile.device == Device::Cpu;
    const bool quick = options.quick;
    std::vector<PlannedGraph> plan =
        zooPlan({}, quick ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{1, 8});
    std::vector<std::pair<double, std::size_t>> order;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        double elements = 0; // the size of its tensors: a cheap proxy for its time
        for (const Node& n : plan[i].graph->nodes)
            elements += double(n.shape.elements().value_or(0));
        order.emplace_back(elements, i);
    }
    std::sort(order.begin(), order.end());
    // The sampler's configurations first (they span the kernel classes), then the zoo's graphs, smallest first.
    std::vector<PlannedGraph> sorted = samplerPlan(cpu ? (quick ? 0.05 : 0.2) : 50.0);
    for (const auto& [size, i] : order)
        sorted.push_back(plan[i]);
    PlanMeasureOptions o;
    o.device = options.device;
    o.maxGflop = cpu ? (quick ? 0.5 : 3.0) : (quick ? 100.0 : 2000.0);
    o.perGraphS = quick ? 0.05 : 0.2;
    o.totalS = options.budgetS > 0 ? options.budgetS : defaultPredictorBudgetS(profile.device, quick);
    o.progress = false;
    o.onProgress = options.onProgress;
    o.cancel = options.cancel;
    std::vector<std::string> skipped;
    const std::vector<EvalRun> runs = measurePlan(backend, sorted, profile, o, skipped);
    if (options.cancel && options.cancel->load())
        return Diagnostic::error("cancelled");
    std::vector<std::string> notes;
    auto trained = withTrainedPredictors(profile, runs, {}, &notes);
    if (!trained)
        return trained.error();
    DeviceProfile out = profile;
    out.kernelPredictors = trained->kernelPredictors;
    out.graphComposition = trained->graphComposition;
    out.attentionWaves = trained->attentionWaves;
    char line[160];
    std::snprintf(line, sizeof line, "kernel predictors from %zu measured sampler and zoo graphs (%zu skipped):\n",
                  runs.size(), skipped.size());
    figures += line;
    if (out.kernelPredictors)
        for (const auto& [cls, k] : *out.kernelPredictors) {
            std::snprintf(line, sizeof line, "  %-12s %5d kernels, %.1f %% mean error on them\n", cls.c_str(),
                          k.samples, k.trainMape);
            figures += line;
        }
    if (out.graphComposition.valid()) {
        std::snprintf(line, sizeof line, "  whole graph = %.2f x kernels' sum %+.0f ns a kernel %+.0f ns\n",
                      out.graphComposition.kernelScale, out.graphComposition.perKernelNs, out.graphComposition.fixedNs);
        figures += line;
    }
    for (const std::string& n : notes)
        figures += "  " + n + "\n";
    return out;
}

} // namespace costscope
