// SPDX-License-Identifier: MIT
#pragma once
// Measuring graphs for the cost model's evaluation and for the kernel predictors' training samples: the zoo
// (zoo/model_zoo.h) and graph files, each at several batches, each measured with per-node times (measureForFit),
// with the host probed around each run where the profile holds a probe (the CPU). Shared by evaluate and calibrate,
// in the CLI and the GUI.
#include "analysis/device_profile.h"
#include "backend.h"
#include "train/family_holdout.h"

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace costscope {

struct PlannedGraph {
    std::string family, name;
    std::int64_t batch = 0;
    std::shared_ptr<const Graph> graph;
};

// The zoo's graphs of `families` (all when empty) at each batch.
std::vector<PlannedGraph> zooPlan(const std::set<std::string>& families, const std::vector<std::int64_t>& batches);

// The kernel sampler's graphs (zoo/kernel_sampler.h), family "calibration": configurations up to `maxGflop` each.
std::vector<PlannedGraph> samplerPlan(double maxGflop);

// DATA: graph files, or folders of them. A file's family is its folder's name when the folder was given, else the
// file's own name (its own family).
Result<std::vector<PlannedGraph>> filePlan(const std::vector<std::string>& data,
                                           const std::vector<std::int64_t>& batches);

struct PlanMeasureOptions {
    DeviceIndex device = 0;
    double maxGflop = 1e9;  // graphs over this are skipped
    double perGraphS = 0.3; // timed runs' budget per graph
    double totalS = 1e9;    // stop measuring after this long (the graphs left are skipped)
    // Stop measuring the kernel sampler's graphs (family kSamplerFamily) after this long; the others still run.
    double samplerS = 1e9;
    bool progress = true; // a line per graph on stderr
    // Called after each graph (measured or skipped) with the graphs done and planned, from the measuring thread.
    std::function<void(std::size_t done, std::size_t total)> onProgress;
    const std::atomic<bool>* cancel = nullptr; // set: the graphs left are skipped as "cancelled"
};

// Graphs that cannot run or are over a limit are skipped with a line in `skipped`.
std::vector<EvalRun> measurePlan(Backend& backend, const std::vector<PlannedGraph>& plan, const DeviceProfile& profile,
                                 const PlanMeasureOptions& options, std::vector<std::string>& skipped);

} // namespace costscope
