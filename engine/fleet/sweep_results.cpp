// SPDX-License-Identifier: MIT
#include "fleet/sweep_results.h"

#include <sstream>

namespace costscope {

namespace {
using Json = nlohmann::ordered_json;

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + '"';
}

std::string number(const Json& j, const Json::json_pointer& at)
{
    return j.contains(at) && j[at].is_number() ? j[at].dump() : "";
}
} // namespace

std::string sweepResultsJson(const std::vector<SweepCellResult>& results, const std::string& rayUrl)
{
    auto list = Json::array();
    std::size_t succeeded = 0;
    for (const SweepCellResult& r : results) {
        Json e = {{"graph", r.cell.graph},   {"batch", r.cell.batch},
                  {"device", r.cell.device}, {"status", r.succeeded ? "succeeded" : "failed"},
                  {"attempts", r.attempts},  {"jobs", r.jobs}};
        if (r.succeeded)
            e["run"] = r.run;
        else
            e["error"] = r.error;
        succeeded += r.succeeded;
        list.push_back(std::move(e));
    }
    return Json{{"ray", rayUrl}, {"cells", results.size()}, {"succeeded", succeeded}, {"results", list}}.dump(2) + '\n';
}

std::string sweepResultsCsv(const std::vector<SweepCellResult>& results)
{
    std::ostringstream csv;
    csv << "graph,batch,device,status,attempts,median_ns,rlx_ns,costscope_ns,job,error\n";
    for (const SweepCellResult& r : results)
        csv << csvField(r.cell.graph) << ',' << r.cell.batch << ',' << csvField(r.cell.device) << ','
            << (r.succeeded ? "succeeded" : "failed") << ',' << r.attempts << ','
            << number(r.run, Json::json_pointer("/whole/median_ns")) << ','
            << number(r.run, Json::json_pointer("/predicted/rlx/total_ns")) << ','
            << number(r.run, Json::json_pointer("/predicted/costscope/total_ns")) << ','
            << (r.jobs.empty() ? "" : r.jobs.back()) << ',' << csvField(r.succeeded ? "" : r.error) << '\n';
    return csv.str();
}

} // namespace costscope
