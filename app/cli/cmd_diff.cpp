// SPDX-License-Identifier: MIT
#include "cli/analysis_setup.h"
#include "cli/commands.h"
#include "cli/load.h"

#include "interop/graph_diff.h"
#include "report/report.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>

namespace costscope::cli {

namespace {

using Json = nlohmann::ordered_json;

Json nodeRef(const Graph& g, std::size_t i)
{
    return {{"id", g.nodes[i].id}, {"name", g.nodes[i].displayName()}, {"op", g.nodes[i].op.label()}};
}

Json diffJson(const Graph& a, const Graph& b, const GraphDiff& d, const std::vector<DeviceCostDiff>& costs)
{
    Json j;
    j["matched"] = d.matched.size();
    j["removed"] = Json::array();
    for (std::size_t i : d.removed)
        j["removed"].push_back(nodeRef(a, i));
    j["added"] = Json::array();
    for (std::size_t i : d.added)
        j["added"].push_back(nodeRef(b, i));
    j["changed"] = Json::array();
    for (const NodePair& p : d.matched)
        if (p.changed)
            j["changed"].push_back({{"a", nodeRef(a, p.a)}, {"b", nodeRef(b, p.b)}, {"what", p.what}});
    j["devices"] = Json::array();
    for (const DeviceCostDiff& c : costs) {
        Json nodes = Json::array();
        for (const NodeCostDelta& n : c.nodes)
            nodes.push_back({{"a", n.a ? Json(a.nodes[*n.a].id) : Json()}, {"b", n.b ? Json(b.nodes[*n.b].id) : Json()},
                             {"cost_a_ns", n.costA}, {"cost_b_ns", n.costB}, {"delta_ns", n.delta()}});
        j["devices"].push_back({{"device", c.device}, {"total_a_ns", c.totalA}, {"total_b_ns", c.totalB},
                                {"delta_ns", c.totalB - c.totalA}, {"nodes", nodes}});
    }
    return j;
}

} // namespace

int cmdDiff(const std::vector<std::string>& argv)
{
    std::string err;
    std::set<std::string> options = kAnalysisOptions;
    options.erase("rlx-version"); // a diff picks no device
    auto args = Args::parse(argv, {"json"}, options, &err);
    if (!args || args->positional().size() != 2) {
        std::cerr << "usage: costscope-cli diff A B [--device D]... [--model rlx|costscope] [--bind SYM=N]... [--json]"
                  << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    int code = kOk;
    auto setup = analysisSetup(*args, &code);
    if (!setup)
        return code;
    auto la = loadForCommand(args->positional()[0], true);
    auto lb = loadForCommand(args->positional()[1], true);
    if (!la || !lb)
        return kBadInput;
    const Graph& a = la->graph;
    const Graph& b = lb->graph;
    const GraphDiff d = diffGraphs(a, b);
    std::vector<GraphCost> ca, cb;
    for (const DeviceProfile& p : setup->profiles) {
        ca.push_back(setup->model->estimate(a, p, setup->bindings));
        cb.push_back(setup->model->estimate(b, p, setup->bindings));
    }
    const auto costs = costDiff(d, ca, cb);
    if (args->flag("json")) {
        std::cout << diffJson(a, b, d, costs).dump(2) << '\n';
        return kOk;
    }
    std::cout << d.matched.size() << " matched (" << d.changedCount() << " changed), " << d.removed.size()
              << " removed, " << d.added.size() << " added\n";
    for (std::size_t i : d.removed)
        std::cout << "  - " << a.nodes[i].id << ' ' << a.nodes[i].displayName() << " (" << a.nodes[i].op.label() << ")\n";
    for (std::size_t i : d.added)
        std::cout << "  + " << b.nodes[i].id << ' ' << b.nodes[i].displayName() << " (" << b.nodes[i].op.label() << ")\n";
    for (const NodePair& p : d.matched)
        if (p.changed)
            std::cout << "  ~ " << b.nodes[p.b].id << ' ' << b.nodes[p.b].displayName() << ": " << p.what << '\n';
    for (const DeviceCostDiff& c : costs)
        std::cout << c.device << ": " << reportTime(c.totalA) << " -> " << reportTime(c.totalB) << " ("
                  << (c.totalB >= c.totalA ? "+" : "-") << reportTime(std::abs(c.totalB - c.totalA)) << ")\n";
    return kOk;
}

} // namespace costscope::cli
