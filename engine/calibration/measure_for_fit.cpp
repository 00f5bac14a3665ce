// SPDX-License-Identifier: MIT
#include "calibration/measure_for_fit.h"

#include "calibration/time_graph.h"
#include "measure.h"

#include <algorithm>
#include <chrono>

namespace costscope {

Result<MeasuredRun> measureForFit(Backend& backend, std::shared_ptr<const Graph> g, const FitMeasureOptions& o)
{
    auto plan = readyPlan(backend, *g, o.device);
    if (!plan)
        return plan.error();
    // The first run (also a warm-up) sizes the number of timed runs to the budget.
    const auto t0 = std::chrono::steady_clock::now();
    if (auto r = (*plan)->run(); !r)
        return r.error();
    const double firstS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MeasureOptions m;
    m.warmupRuns = firstS < 0.05 ? 3 : 1;
    m.timedRuns = std::clamp(static_cast<int>(o.budgetS / std::max(1e-6, firstS)), 3, 15);
    m.perNode = true;
    m.cancel = o.cancel;
    auto r = measure(**plan, m);
    if (!r)
        return r.error();
    MeasuredRun run;
    run.graph = std::move(g);
    run.wholeNs = static_cast<double>(r->whole.medianNs);
    for (const NodeTiming& t : r->perNode)
        run.nodes.emplace_back(t.node, static_cast<double>(t.ns));
    return run;
}

} // namespace costscope
