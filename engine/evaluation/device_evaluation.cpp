// SPDX-License-Identifier: MIT
#include "evaluation/device_evaluation.h"

#include "analysis/rlx_profiles.h"
#include "analysis/run_predictions.h"
#include "backend.h"

namespace costscope {

Result<EvaluationReport> evaluateRuns(const std::vector<EvalRun>& runs, const DeviceProfile& calibrated,
                                      const std::string& backend, bool asIs)
{
    if (!isKnownBackend(backend))
        return Diagnostic::error("RLX parity has no profile for backend '" + backend + "'");
    const auto rlxSet = rlxProfileSet("rlx-linux");
    const DeviceProfile* rlx = findProfile(rlxSet, deviceOfBackend(backend));
    if (!rlx)
        return Diagnostic::error("RLX parity has no profile for backend '" + backend + "'");
    return asIs ? evaluateProfileAsIs(runs, calibrated, *rlx) : evaluateLeaveFamilyOut(runs, calibrated, *rlx);
}

Result<DeviceEvaluation> evaluateOnDevice(Backend& backend, const DeviceProfile& calibrated,
                                          const DeviceEvaluationOptions& o)
{
    const bool cpu = o.backend == "cpu";
    // The sampler's kernels train every held-out family's predictors (as calibrate's do); then the families.
    std::vector<PlannedGraph> planned = o.sampler ? samplerPlan(cpu ? 0.2 : 50.0) : std::vector<PlannedGraph>{};
    if (o.zoo) {
        const auto zoo = zooPlan(o.families, o.batches);
        planned.insert(planned.end(), zoo.begin(), zoo.end());
    }
    planned.insert(planned.end(), o.files.begin(), o.files.end());
    PlanMeasureOptions mo;
    mo.device = o.device;
    mo.maxGflop = o.maxGflop > 0 ? o.maxGflop : (cpu ? 4 : 2000);
    mo.perGraphS = o.perGraphS > 0 ? o.perGraphS : (cpu ? 0.4 : 0.3);
    if (o.samplerBudgetS > 0)
        mo.samplerS = o.samplerBudgetS;
    mo.progress = o.progressLines;
    mo.onProgress = o.onProgress;
    mo.cancel = o.cancel;
    std::vector<std::string> skipped;
    DeviceEvaluation e;
    e.runs = measurePlan(backend, planned, calibrated, mo, skipped);
    if (o.cancel && o.cancel->load())
        return Diagnostic::error("cancelled");
    auto report = evaluateRuns(e.runs, calibrated, o.backend);
    if (!report)
        return report.error();
    e.report = std::move(*report);
    for (const std::string& s : skipped)
        e.report.notes.push_back("skipped " + s);
    return e;
}

} // namespace costscope
