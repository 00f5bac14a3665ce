// SPDX-License-Identifier: MIT
#include "train/eval_report_json.h"

namespace costscope {

namespace {
using Json = nlohmann::ordered_json;

Json statsJson(const ErrorStats& s)
{
    return {{"count", s.count}, {"within_10", s.within10}, {"within_25", s.within25}, {"mape", s.mape}};
}

Json predictionsJson(const std::vector<EvalPrediction>& v)
{
    Json a = Json::array();
    for (const EvalPrediction& p : v)
        a.push_back({{"model", p.model},
                     {"family", p.family},
                     {"graph", p.graph},
                     {"batch", p.batch},
                     {"predicted_ns", p.predictedNs},
                     {"measured_ns", p.measuredNs},
                     {"error", p.error()}});
    return a;
}

ErrorStats statsOf(const Json& j)
{
    return {j.at("count").get<int>(), j.at("mape").get<double>(), j.at("within_10").get<double>(),
            j.at("within_25").get<double>()};
}

std::vector<EvalPrediction> predictionsOf(const Json& a)
{
    std::vector<EvalPrediction> v;
    for (const Json& p : a)
        v.push_back({p.at("model").get<std::string>(), p.at("family").get<std::string>(),
                     p.at("graph").get<std::string>(), p.at("batch").get<std::int64_t>(),
                     p.at("predicted_ns").get<double>(), p.at("measured_ns").get<double>()});
    return v;
}
} // namespace

nlohmann::ordered_json evaluationReportJson(const EvaluationReport& r, const EvaluationReportHeader& header)
{
    Json j;
    j["backend"] = header.backend;
    j["device"] = header.device;
    j["profile"] = header.profile;
    j["protocol"] = header.protocol;
    j["families"] = r.families;
    j["models"] = Json::array();
    for (const ModelAccuracy& m : r.models)
        j["models"].push_back({{"model", m.model}, {"graphs", statsJson(m.graphs)}, {"nodes", statsJson(m.nodes)}});
    j["by_family"] = Json::array();
    for (const FamilyAccuracy& f : r.byFamily)
        j["by_family"].push_back(
            {{"model", f.model}, {"family", f.family}, {"graphs", statsJson(f.graphs)}, {"nodes", statsJson(f.nodes)}});
    j["worst"] = predictionsJson(r.worst);
    auto nodes = [](const std::vector<NodeMiss>& v) {
        Json a = Json::array();
        for (const NodeMiss& n : v)
            a.push_back({{"family", n.family},
                         {"graph", n.graph},
                         {"batch", n.batch},
                         {"node", n.node},
                         {"op", n.op},
                         {"predicted_ns", n.predictedNs},
                         {"measured_ns", n.measuredNs}});
        return a;
    };
    j["worst_nodes"] = nodes(r.worstNodes);
    j["predictions"] = predictionsJson(r.predictions);
    if (header.allNodes)
        j["nodes"] = nodes(r.nodes);
    j["notes"] = r.notes;
    return j;
}

Result<EvaluationReport> parseEvaluationReport(const nlohmann::ordered_json& j, const std::string& origin,
                                               EvaluationReportHeader* header)
{
    try {
        EvaluationReport r;
        r.families = j.at("families").get<std::vector<std::string>>();
        for (const Json& m : j.at("models"))
            r.models.push_back({m.at("model").get<std::string>(), statsOf(m.at("graphs")), statsOf(m.at("nodes"))});
        for (const Json& f : j.at("by_family"))
            r.byFamily.push_back({f.at("model").get<std::string>(), f.at("family").get<std::string>(),
                                  statsOf(f.at("graphs")), statsOf(f.at("nodes"))});
        r.worst = predictionsOf(j.at("worst"));
        r.predictions = predictionsOf(j.at("predictions"));
        for (const Json& n : j.at("worst_nodes"))
            r.worstNodes.push_back({n.at("family").get<std::string>(), n.at("graph").get<std::string>(),
                                    n.at("op").get<std::string>(), n.at("batch").get<std::int64_t>(),
                                    n.at("node").get<NodeId>(), n.at("predicted_ns").get<double>(),
                                    n.at("measured_ns").get<double>()});
        r.notes = j.value("notes", std::vector<std::string>{});
        if (header)
            *header = {j.value("backend", ""), j.value("device", ""), j.value("profile", ""), j.value("protocol", "")};
        return r;
    } catch (const Json::exception& e) {
        return Diagnostic::error(origin + ": not an evaluation report (" + e.what() + ")");
    }
}

} // namespace costscope
