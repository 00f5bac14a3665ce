// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace costscope {

// One run of a fleet sweep: a graph at a batch size on a device.
struct SweepCell {
    std::string graph;      // a path on the workers
    std::int64_t batch = 0; // 0: as the file states
    std::string device;     // "cpu", "cuda:0", as the manifest names it
    std::string backend;    // "cpu", "cuda"
    int deviceIndex = 0;
};

// A grid of runs (graphs × batches × devices) and how to run it:
// {
//   "graphs": ["/data/cnn.hir.json"],          paths on the workers (required)
//   "batches": [1, 8, 64],                       optional; absent: each graph as its file states
//   "batch_symbol": "batch",                     optional: bind this symbol to the batch (--bind) rather than
//                                                rebatch a graph of static shapes (--batch)
//   "devices": ["cpu", "cuda:0"],                optional; absent: ["cpu"]
//   "cli": "costscope-cli",                      the CLI on the workers
//   "run_args": ["--runs", "10"],                more `costscope-cli run` arguments
//   "retries": 2,                                a failed run is submitted again at most this often
//   "max_in_flight": 8,                          jobs submitted and not yet finished, at most
//   "job_timeout_s": 600, "poll_ms": 500
// }
struct SweepManifest {
    std::vector<std::string> graphs;
    std::vector<std::int64_t> batches = {0};
    std::vector<std::string> devices = {"cpu"};
    std::string batchSymbol; // empty: --batch
    std::string cli = "costscope-cli";
    std::vector<std::string> runArgs;
    int retries = 2;
    int maxInFlight = 8;
    std::chrono::seconds jobTimeout{600};
    std::chrono::milliseconds poll{500};

    std::vector<SweepCell> cells() const; // graphs, then batches, then devices
};

Result<SweepManifest> parseSweepManifest(const std::string& text, const std::string& origin);

// The job's shell command: `CLI run GRAPH [--batch N | --bind SYMBOL=N] --backend B --device I RUN_ARGS... --json`.
std::string sweepEntrypoint(const SweepManifest& m, const SweepCell& cell);

} // namespace costscope
