// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/cost_model.h"
#include "analysis/device_profile.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace costscope {

// One measured node: its op class (opClassName), what the Costscope model predicted without corrections, and the
// measured time.
struct FitSample {
    std::string opClass;
    double predictedNs = 0;
    double measuredNs = 0;
};

// One measured graph: the uncorrected whole-graph prediction, the measured median, and its nodes.
struct FitRun {
    double predictedNs = 0;
    double measuredNs = 0;
    std::vector<FitSample> nodes;
};

struct FitOptions {
    int minSamples = 3;       // a class with fewer usable samples keeps factor 1
    // Every run (graph at a binding) carries the same total weight, shared among its nodes: a transformer's 1 200
    // small nodes must not outvote a CNN's 50 large ones. Within a run the share is equal per node, or, with
    // weightByTime, by measured time: the factor then follows the nodes that dominate a graph's time rather than
    // the many tiny ones (better whole-graph error, worse per-node error).
    bool weightByTime = false;
    // Shrinkage toward factor 1, in runs: each class's mean log ratio is taken as if this many more runs had
    // measured it exactly as predicted. A class seen in a single run then moves a third of the way, and classes
    // seen in many runs most of it. 0 gives the plain weighted mean. Why 2: the calibrated model is already within
    // about 20 % on this machine's graphs, and class factors fitted on one half of the shared graphs carried
    // shape-specific errors (inception's small convolutions) to the other half; in three bench runs, priors of
    // 0.5, 2 and 4 runs put 73, 80 and 87 % of the evaluation graphs within ±25 % (docs/engine.md).
    double priorRuns = 2.0;
    double minFactor = 0.05;  // clamp: a factor outside these bounds says the model is wrong, not mis-scaled
    double maxFactor = 20.0;
};

// Prediction error over a set of (predicted, measured) pairs; shares are fractions in 0..1.
struct ErrorStats {
    int count = 0;
    double mape = 0;          // mean |predicted - measured| / measured, in percent
    double within10 = 0;      // share with |error| <= 10 %
    double within25 = 0;      // share with |error| <= 25 %
};

ErrorStats errorStats(const std::vector<std::pair<double, double>>& predictedMeasured);

struct FitReport {
    std::map<std::string, double> corrections; // fitted factor per class (classes with enough samples)
    std::map<std::string, int> samples;        // usable samples per class
    ErrorStats nodesBefore, nodesAfter, graphsBefore, graphsAfter;
};

// Least squares on log time per class, closed form: log f = Σ w·log(measured / predicted) / (Σ w + priorRuns),
// with the weights w described at FitOptions (each run's sum to 1), then clamped.
// Samples with a non-positive prediction or measurement are ignored. The corrected whole-graph prediction keeps
// the graph's fixed terms: predicted + Σ node predicted × (f − 1).
FitReport fitCorrections(const std::vector<FitRun>& runs, const FitOptions& options = {});

// The whole-graph and per-node error of `runs` under the given factors (missing classes: 1).
ErrorStats graphErrors(const std::vector<FitRun>& runs, const std::map<std::string, double>& corrections);
ErrorStats nodeErrors(const std::vector<FitRun>& runs, const std::map<std::string, double>& corrections);

// A fit sample set from one measured run: `cost` is an estimate (for fitting: the Costscope model under a profile
// without corrections); `measured` pairs node ids with the instrumented run's ns, and each loses the run's
// instrumentation overhead (instrumentationOverheadNs) before it is compared. Nodes the model calls free or could
// not cost are left out.
FitRun fitRunFrom(const Graph& g, const GraphCost& cost, const std::vector<std::pair<NodeId, double>>& measured,
                  double wholeMeasuredNs, double launchNs = 0);

// What timing each node on its own added per node, estimated from the same run: the instrumented nodes' sum less
// the plain whole-graph median, shared equally among the nodes (a GPU synchronises around each timed node, 1-3 µs
// that the plain run, a CUDA graph, never pays), and 0 where the nodes sum to less than the whole. Every fit and
// every per-node error removes it: without that, element-wise nodes looked 3x slower than they run.
// `launchNs`: what the plain run spends outside its kernels (launching the graph and waiting for it, fitGraphLaunchNs),
// taken out of the whole first (never more than half of it). Without it a graph of 6 nodes shared its 9 µs launch
// among its nodes as kernel time, and one of 400 nodes did not.
double instrumentationOverheadNs(const std::vector<std::pair<NodeId, double>>& measured, double wholeMeasuredNs,
                                 double launchNs = 0);
// A node's time without that overhead; one timed faster than the overhead keeps a tenth of its time, not none.
double withoutOverheadNs(double measuredNs, double overheadNs);
// Each node's measured time (a node timed more than once: their sum) less the run's overhead, by node id.
std::map<NodeId, double> nodeTimesWithoutOverhead(const std::vector<std::pair<NodeId, double>>& measured,
                                                  double wholeMeasuredNs, double launchNs = 0);

// One measured run for fitGraphLaunchNs: its instrumented nodes' sum, their count and the plain whole-graph time.
struct InstrumentedRunTotals {
    double nodesNs = 0;
    double nodes = 0;
    double wholeNs = 0;
};
// A device's launch and wait per plain run, from runs with different node counts: least squares in relative error
// of Σ nodes − whole = overhead · nodes − launch (the launch alone where the overhead comes out negative). 0 when
// fewer than 6 runs, the counts do not vary, or the launch comes out negative.
double fitGraphLaunchNs(const std::vector<InstrumentedRunTotals>& runs);

} // namespace costscope
