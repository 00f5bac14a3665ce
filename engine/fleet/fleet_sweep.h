// SPDX-License-Identifier: MIT
#pragma once

#include "fleet/ray_jobs.h"
#include "fleet/sweep_manifest.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace costscope {

// How one cell of the grid ended: its run JSON (as `costscope-cli run --json` writes it), or why it failed after
// every attempt. There is exactly one per cell, whatever the retries.
struct SweepCellResult {
    SweepCell cell;
    bool succeeded = false;
    int attempts = 0;
    std::vector<std::string> jobs; // the submission ids, in order; the last one gave the result
    nlohmann::ordered_json run;    // when succeeded
    std::string error;             // when not
};

struct FleetSweepOptions {
    std::string sweepId;                       // prefixes every submission id (unique per sweep)
    const std::atomic<bool>* cancel = nullptr; // stops the jobs in flight and returns
    std::function<void(const std::string&)> onProgress;
    std::function<void(std::size_t finished, std::size_t cells)> onCellFinished; // after each cell's final result
};

// Submits the grid as Ray jobs, at most maxInFlight at a time, polls them, submits a failed one again up to
// `retries` times and gathers each cell's run from its job's logs. Fails as a whole only when Ray stops
// answering (every call has a timeout); a cell that keeps failing is a result with its error.
Result<std::vector<SweepCellResult>> runFleetSweep(const RayJobsClient& ray, const SweepManifest& manifest,
                                                   const FleetSweepOptions& options);

// The run JSON a job printed, found in its logs (which may hold other lines around it).
Result<nlohmann::ordered_json> runJsonFromLogs(const std::string& logs);

} // namespace costscope
