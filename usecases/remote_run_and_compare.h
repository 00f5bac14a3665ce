// SPDX-License-Identifier: MIT
#pragma once
// The Run panel's run on a remote device: the open graph run there by the remote costscope-cli (engine/remote:
// ssh, the content-addressed cache, Cancel) and its per-node times set against predictions made here, the Costscope
// model under the host's calibration when it is kept here, so that the run fills the same views as a local one.
#include "remote/remote_cli.h"
#include "usecases/run_and_compare.h"

#include <atomic>
#include <functional>
#include <string>

namespace costscope {

struct RemoteRunRequest {
    RunRequest run; // backend and device name the remote host's device
    RemoteCliOptions remote;
    // The file `run.graph` was read from while the graph still is that file's (not edited since); empty for an
    // edited or new graph.
    std::string graphFile;
};

// The Costscope profile a run on `host`'s `backend` is priced with: the host's calibration ("<host>/calibrated-
// <backend>", as a remote calibration is kept here) when there is one, else "" (predictRun's automatic choice).
std::string hostProfileName(const std::string& host, const std::string& backend);

// Sends what a run here would use, so that the host computes what this machine would: the graph's file with its
// external data when it holds the graph, weights included (an ONNX model, or a graph whose values all live in
// Constants); else the graph as RLX HIR JSON with every Param's values written as a Constant's data (HIR JSON keeps
// no Param values). Either way the node ids are the document's, so that the remote's per-node times land on the
// nodes shown here. It runs there with the request's bindings, one warm-up run, `runs` timed runs and a per-node
// run, and compares. `progress` gets the
// remote's lines (copying, running, its stderr) as they come; `cancel` kills the ssh connection and the remote run.
Result<RunComparison> runRemotelyAndCompare(const RemoteRunRequest& request, const std::atomic<bool>* cancel,
                                            const std::function<void(const std::string&)>& progress);

} // namespace costscope
