// SPDX-License-Identifier: MIT
#include "train/eval_runs_io.h"

#include "analysis/profile_io.h"
#include "formats/rlx_json.h"

#include <nlohmann/json.hpp>

namespace costscope {

namespace {

using Json = nlohmann::ordered_json;

Diagnostic bad(const std::string& origin, const std::string& what)
{
    return Diagnostic::error(origin + ": " + what);
}

} // namespace

std::string writeEvalRuns(const SavedEvalRuns& saved)
{
    Json j;
    j["costscope_eval_runs"] = kEvalRunsVersion;
    j["backend"] = saved.backend;
    j["device"] = saved.device;
    j["profile"] = Json::parse(profileToJsonText(saved.profile));
    j["runs"] = Json::array();
    for (const EvalRun& r : saved.runs) {
        Json nodes = Json::array();
        for (const auto& [id, ns] : r.run.nodes)
            nodes.push_back({id, ns});
        j["runs"].push_back({{"family", r.family},
                             {"graph", r.graph},
                             {"batch", r.batch},
                             {"bindings", r.run.bindings},
                             {"whole_ns", r.run.wholeNs},
                             {"host", {r.run.host.gemm, r.run.host.kernel, r.run.host.memory, r.run.host.dispatch}},
                             {"nodes", nodes},
                             {"hir", Json::parse(writeRlxJson(*r.run.graph))}});
    }
    return j.dump();
}

Result<SavedEvalRuns> parseEvalRuns(const std::string& text, const std::string& origin)
{
    Json j;
    try {
        j = Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return bad(origin, std::string("not JSON: ") + e.what());
    }
    if (!j.is_object() || !j.contains("costscope_eval_runs"))
        return bad(origin,
                   "not a saved evaluation (no \"costscope_eval_runs\" key; write one with evaluate --save-runs)");
    if (!j["costscope_eval_runs"].is_number_integer() || j["costscope_eval_runs"].get<int>() > kEvalRunsVersion)
        return bad(origin, "saved evaluation version " + j["costscope_eval_runs"].dump() + " is newer than this build ("
                               + std::to_string(kEvalRunsVersion) + ")");
    SavedEvalRuns saved;
    try {
        saved.backend = j.value("backend", "");
        saved.device = j.value("device", "");
        auto profile = profileFromJsonText(j.at("profile").dump(), origin + " (profile)");
        if (!profile)
            return profile.error();
        saved.profile = std::move(*profile);
        const Json& runs = j.at("runs");
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const Json& r = runs[i];
            const std::string where = "run " + std::to_string(i) + " (" + r.value("graph", "?") + ")";
            auto graph = parseRlxJson(r.at("hir").dump());
            if (!graph)
                return bad(origin, where + ": " + graph.error().message);
            EvalRun run;
            run.family = r.at("family").get<std::string>();
            run.graph = r.at("graph").get<std::string>();
            run.batch = r.at("batch").get<std::int64_t>();
            run.run.graph = std::make_shared<const Graph>(std::move(*graph));
            run.run.bindings = r.at("bindings").get<Bindings>();
            run.run.wholeNs = r.at("whole_ns").get<double>();
            const Json& h = r.at("host");
            if (!h.is_array() || h.size() != 4)
                return bad(origin, where + ": \"host\" must hold 4 speeds");
            run.run.host = {h[0].get<double>(), h[1].get<double>(), h[2].get<double>(), h[3].get<double>()};
            for (const Json& n : r.at("nodes")) {
                const auto id = n.at(0).get<NodeId>();
                if (!run.run.graph->find(id))
                    return bad(origin, where + ": node " + std::to_string(id) + " is not in its graph");
                run.run.nodes.emplace_back(id, n.at(1).get<double>());
            }
            if (run.run.wholeNs <= 0)
                return bad(origin, where + ": whole-graph time must be positive");
            saved.runs.push_back(std::move(run));
        }
    } catch (const nlohmann::json::exception& e) {
        return bad(origin, std::string("unexpected content: ") + e.what());
    }
    return saved;
}

} // namespace costscope
