// SPDX-License-Identifier: MIT
// onnx_node_runner's worker isolation (--isolation worker) and the result lines both isolation modes print.
//
// A worker is the runner's own binary exec'ed with --serve: it creates its backend once (its own CUDA context, which
// a forked child of a process that made one could not use), then reads case directories one a line on stdin and
// answers each with one "RESULT<TAB>WHY" line on stdout. The parent hands cases to idle workers, kills a worker whose
// case outlives the timeout (the case is a hang), counts a worker that dies with a case as that case's crash, and
// replaces both, so that one bad case ends one worker, not the report.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace costscope::conformance {

// The "crash\tWHY" line of a case whose process ended without a result: the signal by name, or the exit status.
std::string crashLine(int waitStatus);
// The "hang\tWHY" line of a case that gave no result within `timeout` seconds.
std::string hangLine(double timeout);
// Prints "NAME<TAB>RESULT<TAB>WHY" (NAME: the case directory's name, WHY on one line) for a "RESULT\tWHY" line.
void printResult(const std::string& caseDir, const std::string& line);

// The read end of a forked child's or a worker's result pipe, and what came through it so far.
struct Output {
    int fd = -1;
    std::string text;
};
// Waits up to 100 ms for any of `outputs` to be readable, appends what each gave to its text and returns, per output,
// whether it has ended (every writer closed it: the process exited or died).
std::vector<bool> readOutputs(const std::vector<Output*>& outputs);

struct WorkerPool {
    std::vector<std::string> workerArgs; // argv of a worker: the runner's name, --serve and the case options
    int jobs = 2;
    double timeout = 60;      // seconds per case, counted from handing it out (a fresh worker's start included)
    int casesPerWorker = 200; // then the worker is replaced, so that what a backend leaks per case stays bounded
};
// Runs every case in workers and prints their results in the order they finish.
void runInWorkers(const std::vector<std::string>& caseDirs, const WorkerPool& pool);

// The worker's side. takeResultChannel() ties the worker's life to the runner's, moves stdout aside and points fd 1
// at stderr, so that whatever a library prints cannot be read as a result; call it before creating the backend.
// serveCases() then answers every line of stdin with runCase's "RESULT\tWHY" on that channel, flushed per case.
int takeResultChannel();
int serveCases(int channel, const std::function<std::string(const std::string& caseDir)>& runCase);

} // namespace costscope::conformance
