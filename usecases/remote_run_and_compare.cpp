// SPDX-License-Identifier: MIT
#include "usecases/remote_run_and_compare.h"

#include "analysis/profile_library.h"
#include "formats/graph_file.h"
#include "formats/rlx_json.h"
#include "remote/remote_commands.h"
#include "remote/scratch_dir.h"
#include "usecases/run_json_comparison.h"

namespace costscope {

std::string hostProfileName(const std::string& host, const std::string& backend)
{
    const std::string name = remoteProfileName(host, backend);
    return ProfileLibrary::load(ProfilePaths::defaults()).find(name) ? name : std::string();
}

Result<RunComparison> runRemotelyAndCompare(const RemoteRunRequest& request, const std::atomic<bool>* cancel,
                                            const std::function<void(const std::string&)>& progress)
{
    const RunRequest& run = request.run;
    ScratchDir scratch;
    if (scratch.path().empty())
        return Diagnostic::error("cannot create a temporary directory for the graph sent to the remote host");
    // The same graph is the same file, byte for byte: the remote cache keeps it across runs.
    const std::string file = scratch.path() + "/graph.hir.json";
    if (auto written = writeFileAtomic(file, writeRlxJson(*run.graph)); !written)
        return written.error();
    std::vector<std::string> args = {
        "--backend", run.backend, "--device",   std::to_string(run.device), "--runs", std::to_string(run.runs),
        "--warmup",  "1",         "--per-node", "--no-host-probe"};
    for (const auto& [symbol, value] : run.bindings)
        args.insert(args.end(), {"--bind", symbol + '=' + std::to_string(value)});
    RemoteCliOptions options = request.remote;
    options.cancel = cancel;
    options.onProgress = progress;
    RemoteCli remote(options);
    auto out = runGraphRemotely(remote, file, args);
    if (!out)
        return out.error();
    nlohmann::ordered_json j;
    try {
        j = nlohmann::ordered_json::parse(out->out);
    } catch (const nlohmann::ordered_json::exception& e) {
        return Diagnostic::error(options.target.destination() + ": the remote run printed no JSON (" + e.what() + ')');
    }
    const std::string host = options.target.host;
    const auto device = j.find("device");
    const std::string name = device != j.end() && device->is_object() ? device->value("name", "") : "";
    const std::string deviceName = name + " on " + host;
    return compareRunJson(run.graph, j, hostProfileName(host, run.backend), deviceName);
}

} // namespace costscope
