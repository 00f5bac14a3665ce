// SPDX-License-Identifier: MIT
#include "usecases/remote_run_and_compare.h"

#include "analysis/profile_library.h"
#include "formats/graph_file.h"
#include "formats/rlx_json.h"
#include "remote/remote_commands.h"
#include "remote/scratch_dir.h"
#include "usecases/run_json_comparison.h"

#include <algorithm>

namespace costscope {

namespace {
bool holdsParamValues(const Graph& g)
{
    return std::any_of(g.nodes.begin(), g.nodes.end(), [](const Node& n) {
        return (n.op.kind == OpKind::Param && n.data)
               || std::any_of(n.subgraphs.begin(), n.subgraphs.end(),
                              [](const Subgraph& s) { return s.graph && holdsParamValues(*s.graph); });
    });
}

// The graph with each Param that holds values (an ONNX model's initializers, edited since) turned into a Constant of
// the same values, which RLX HIR JSON carries; the engine reads both alike (synthetic.h).
Graph withValuesAsConstants(Graph g)
{
    for (Node& n : g.nodes) {
        if (n.op.kind == OpKind::Param && n.data) {
            if (!n.name)
                n.name = n.displayName();
            n.op = Op::make(OpKind::Constant);
        }
        for (Subgraph& s : n.subgraphs)
            if (s.graph && holdsParamValues(*s.graph))
                s.graph = std::make_shared<const Graph>(withValuesAsConstants(*s.graph));
    }
    return g;
}
} // namespace

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
    std::string file = request.graphFile;
    if (file.empty() || (formatFromPath(file) != GraphFormat::Onnx && holdsParamValues(*run.graph))) {
        if (scratch.path().empty())
            return Diagnostic::error("cannot create a temporary directory for the graph sent to the remote host");
        // The same graph is the same file, byte for byte: the remote cache keeps it across runs.
        file = scratch.path() + "/graph.hir.json";
        if (auto written = writeFileAtomic(file, writeRlxJson(withValuesAsConstants(*run.graph))); !written)
            return written.error();
    }
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
