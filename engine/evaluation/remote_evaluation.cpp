// SPDX-License-Identifier: MIT
#include "evaluation/remote_evaluation.h"

#include "analysis/profile_io.h"
#include "formats/graph_file.h"
#include "remote/remote_commands.h"
#include "remote/scratch_dir.h"
#include "train/eval_report_json.h"

#include <sstream>
#include <string>

namespace costscope {

Result<RemoteEvaluation> evaluateOnRemoteDevice(const RemoteEvaluationRequest& request)
{
    ScratchDir scratch;
    if (scratch.path().empty())
        return Diagnostic::error("cannot create a temporary directory for the profile sent to the remote host");
    // The same profile is the same file: the host's cache keeps it across evaluations.
    const std::string profileFile = scratch.path() + "/profile.json";
    if (auto written = writeFileAtomic(profileFile, profileToJsonText(request.profile)); !written)
        return written.error();
    std::vector<std::string> args = {"--backend", request.backend, "--device", std::to_string(request.device),
                                     "--json"};
    std::string families;
    for (const std::string& f : request.families)
        families += (families.empty() ? "" : ",") + f;
    if (!families.empty())
        args.insert(args.end(), {"--families", families});
    std::string batches;
    for (const std::int64_t b : request.batches)
        batches += (batches.empty() ? "" : ",") + std::to_string(b);
    if (!batches.empty())
        args.insert(args.end(), {"--batches", batches});
    if (request.perGraphS > 0) {
        std::ostringstream budget;
        budget << request.perGraphS;
        args.insert(args.end(), {"--budget", budget.str()});
    }
    RemoteCli remote(request.remote);
    auto out = evaluateRemotely(remote, args, {{"--profile", profileFile}});
    if (!out)
        return out.error();
    const std::string origin = request.remote.target.destination() + ": evaluate --json";
    nlohmann::ordered_json j;
    try {
        j = nlohmann::ordered_json::parse(out->out);
    } catch (const nlohmann::ordered_json::exception& e) {
        return Diagnostic::error(origin + " printed no JSON (" + e.what() + ')');
    }
    EvaluationReportHeader header;
    auto report = parseEvaluationReport(j, origin, &header);
    if (!report)
        return report.error();
    return RemoteEvaluation{std::move(*report), header.device};
}

} // namespace costscope
