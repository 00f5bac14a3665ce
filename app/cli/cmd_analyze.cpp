// SPDX-License-Identifier: MIT
#include "analysis/top_nodes.h"
#include "cli/analysis_options.h"
#include "cli/analysis_setup.h"
#include "cli/commands.h"
#include "cli/load.h"
#include "edit/precision_transform.h"
#include "ir/rebatch.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace costscope::cli {

namespace {

using Json = nlohmann::ordered_json;

Json ioJson(const IoProfile& io)
{
    return {{"kernel_launches", io.kernelLaunches}, {"sync_points", io.syncPoints},
            {"host_output_bytes", io.hostOutputBytes}, {"device_traffic_bytes", io.deviceTrafficBytes}};
}

Json costJson(const Graph& g, const GraphCost& c)
{
    Json nodes = Json::array();
    for (std::size_t i = 0; i < c.nodes.size() && i < g.nodes.size(); ++i) {
        const NodeCost& n = c.nodes[i];
        const Node& node = g.nodes[i];
        nodes.push_back({{"id", n.id}, {"name", node.displayName()}, {"op", node.op.label()}, {"cost_ns", n.totalNs},
                         {"compute_ns", n.computeNs}, {"memory_ns", n.memoryNs}, {"dispatch_ns", n.dispatchNs},
                         {"flops", n.flops}, {"bytes", n.bytes}});
    }
    Json j{{"device", std::string(deviceName(c.device))},
           {"profile", c.profile},
           {"calibration", std::string(calibrationName(c.calibration))},
           {"total_ns", c.totalNs},
           {"io", ioJson(c.io)},
           {"nodes", nodes}};
    if (!c.transferredFrom.empty())
        j["transferred_from"] = c.transferredFrom; // predicted from another device's calibration
    return j;
}

// The pick among the costs under the RLX version's rule, and which costs it ranked.
RuledPick pickAmong(const std::vector<GraphCost>& costs, RlxVersion version)
{
    return pickByRuleOver(
        costs, [](const GraphCost& c) { return c.totalNs; }, [](const GraphCost& c) { return c.calibration; }, version);
}

// The nodes some device's estimate could not cost, in graph order, each with the first device's reason. Skipping
// depends on the shapes and bindings; RLX's discrete-GPU fallback costs every node without looking at shapes, so a
// fallback device skips none.
std::vector<const NodeCost*> skippedNodes(const std::vector<GraphCost>& costs)
{
    std::vector<const NodeCost*> out;
    for (const GraphCost& c : costs)
        for (std::size_t i = 0; i < c.nodes.size(); ++i) {
            if (out.size() <= i)
                out.resize(i + 1, nullptr);
            if (c.nodes[i].skipped && !out[i])
                out[i] = &c.nodes[i];
        }
    out.erase(std::remove(out.begin(), out.end(), nullptr), out.end());
    return out;
}

Json skippedJson(const Graph& g, const std::vector<GraphCost>& costs)
{
    Json list = Json::array();
    for (const NodeCost* n : skippedNodes(costs)) {
        const Node* node = g.find(n->id);
        list.push_back({{"id", n->id}, {"name", node ? node->displayName() : std::string()},
                        {"op", node ? node->op.label() : std::string()}, {"reason", n->note}});
    }
    return list;
}

void printCsv(const Graph& g, const std::vector<GraphCost>& costs)
{
    std::cout << "device,profile,node_id,name,op,cost_ns,compute_ns,memory_ns,dispatch_ns,flops,bytes\n";
    std::cout << std::setprecision(17);
    for (const GraphCost& c : costs)
        for (std::size_t i = 0; i < c.nodes.size(); ++i) {
            const NodeCost& n = c.nodes[i];
            std::string name = g.nodes[i].displayName();
            std::replace(name.begin(), name.end(), ',', ';');
            std::cout << deviceName(c.device) << ',' << c.profile << ',' << n.id << ',' << name << ','
                      << g.nodes[i].op.label() << ',' << n.totalNs << ',' << n.computeNs << ',' << n.memoryNs << ','
                      << n.dispatchNs << ',' << n.flops << ',' << n.bytes << '\n';
        }
}

// The `n` costliest nodes of each device with their share of its total and the cumulative share.
Json topJson(const Graph& g, const GraphCost& c, std::size_t n)
{
    Json list = Json::array();
    for (const TopNode& t : topNodes(c, {}, n).nodes)
        list.push_back({{"id", t.id},
                        {"name", g.nodes[t.index].displayName()},
                        {"op", g.nodes[t.index].op.label()},
                        {"cost_ns", t.predictedNs},
                        {"share", t.predictedShare},
                        {"cumulative_share", t.cumulativeShare}});
    return list;
}

Json opClassJson(const Graph& g, const GraphCost& c)
{
    Json list = Json::array();
    for (const OpClassShare& s : opClassShares(g, c))
        list.push_back({{"op_class", std::string(opClassName(s.opClass))},
                        {"nodes", s.nodes},
                        {"cost_ns", s.predictedNs},
                        {"share", s.share},
                        {"cumulative_share", s.cumulativeShare}});
    return list;
}

void printTop(const Graph& g, const std::vector<GraphCost>& costs, std::size_t n)
{
    for (const GraphCost& c : costs) {
        std::cout << "top " << n << " on " << deviceName(c.device) << " (" << c.profile << "): ns, share, cumulative\n";
        for (const TopNode& t : topNodes(c, {}, n).nodes) {
            const Node& node = g.nodes[t.index];
            const std::string name = node.displayName();
            std::cout << "  %" << t.id << ' ' << (name.empty() ? "" : name + ' ') << '(' << node.op.label() << ")  "
                      << t.predictedNs << "  " << t.predictedShare * 100 << " %  " << t.cumulativeShare * 100 << " %\n";
        }
        std::cout << "by op class on " << deviceName(c.device) << ": ns, share, cumulative\n";
        for (const OpClassShare& s : opClassShares(g, c))
            std::cout << "  " << opClassName(s.opClass) << " (" << s.nodes << " nodes)  " << s.predictedNs << "  "
                      << s.share * 100 << " %  " << s.cumulativeShare * 100 << " %\n";
    }
}

// The device a cost is for: the local device id where --device named one, else the device kind.
std::string deviceColumn(const GraphCost& c, const std::string& id)
{
    return id.empty() ? std::string(deviceName(c.device)) : id;
}

void printText(const Graph& g, const std::vector<GraphCost>& costs, const RuledPick& pick, const AnalysisSetup& setup)
{
    const RlxVersion version = setup.rlxVersion;
    std::cout << std::fixed << std::setprecision(1);
    for (std::size_t i = 0; i < costs.size(); ++i) {
        const GraphCost& c = costs[i];
        std::cout << std::left << std::setw(8) << deviceColumn(c, setup.deviceIds[i]) << ' ' << std::setw(28)
                  << c.profile << std::setw(13) << calibrationName(c.calibration) << std::right << std::setw(14)
                  << c.totalNs / 1000.0 << " us   launches " << c.io.kernelLaunches << ", syncs " << c.io.syncPoints
                  << ", host output " << c.io.hostOutputBytes << " B, device traffic " << c.io.deviceTrafficBytes
                  << " B\n";
        if (!setup.deviceLabels[i].empty())
            std::cout << "         " << setup.deviceLabels[i] << '\n';
    }
    if (pick.pick) {
        const GraphCost& best = costs[*pick.pick];
        std::cout << "pick (RLX " << rlxVersionName(version)
                  << " rule): " << deviceColumn(best, setup.deviceIds[*pick.pick]) << " (" << best.profile
                  << "), predicted " << best.totalNs / 1000.0 << " us\n";
    }
    for (std::size_t i = 0; i < costs.size(); ++i)
        if (!pick.ranked[i])
            std::cout << "  " << deviceColumn(costs[i], setup.deviceIds[i]) << " (" << costs[i].profile << ") "
                      << leftOutReason(costs[i].calibration, version) << '\n';
    const auto skipped = skippedNodes(costs);
    if (!skipped.empty())
        std::cout << "not costed (" << skipped.size() << " node(s); --bind SYM=N binds a symbol):\n";
    for (const NodeCost* n : skipped) {
        const Node* node = g.find(n->id);
        std::cout << "  %" << n->id << ' ' << (node ? node->displayName() + " (" + node->op.label() + ")" : "")
                  << ": " << n->note << '\n';
    }
}

} // namespace

int cmdAnalyze(const std::vector<std::string>& argv)
{
    std::string err;
    std::set<std::string> options = kAnalysisOptions;
    options.insert("batch");
    options.insert("top");
    options.insert("precision");
    auto args = Args::parse(argv, {"json", "csv"}, options, &err);
    if (!args || args->positional().size() != 1) {
        std::cerr
            << "usage: costscope-cli analyze FILE [--device D|all|ID,...]... [--model rlx|costscope] [--profile "
               "NAME|FILE]..."
               " [--profile-set rlx-linux|rlx-apple] [--bind SYM=N]... [--batch N] [--rlx-version V]"
               " [--top N] [--precision fp32|tf32|bf16|fp16|fp8] [--json|--csv]\n"
            << "--device all (every local GPU) or ids (cuda:0,cuda:1): this machine's devices, each under its own "
               "profile (calibrated, else its datasheet preset, else the set's profile of its kind)\n"
            << kRlxVersionUsage << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    const std::string& path = args->positional()[0];
    int code = kOk;
    auto setup = analysisSetup(*args, &code);
    if (!setup)
        return code;
    auto batch = positiveInt(*args, "batch", 0, &err);
    auto top = batch ? positiveInt(*args, "top", 0, &err) : std::nullopt;
    if (!batch || !top) {
        std::cerr << err << '\n';
        return kUsage;
    }
    const std::string precisionText = args->option("precision").value_or("fp32");
    const auto precision = parsePrecision(precisionText);
    if (!precision) {
        std::cerr << "--precision: unknown precision '" << precisionText
                  << "': expected fp32, tf32, bf16, fp16 or fp8\n";
        return kUsage;
    }
    auto loaded = loadForCommand(path, args->flag("json") || args->flag("csv"));
    if (!loaded)
        return kBadInput;
    if (*batch > 0) {
        auto rebatched = rebatch(loaded->graph, *batch);
        if (!rebatched) {
            std::cerr << rebatched.error().format(path) << '\n';
            return kBadInput;
        }
        loaded->graph = std::move(*rebatched);
    }
    if (*precision != Precision::Fp32) {
        auto retyped = edit::withPrecision(loaded->graph, *precision);
        if (!retyped) {
            std::cerr << retyped.error().format(path) << '\n';
            return kBadInput;
        }
        loaded->graph = std::move(*retyped);
    }
    const Graph& g = loaded->graph;

    std::vector<GraphCost> costs;
    for (const DeviceProfile& p : setup->profiles)
        costs.push_back(setup->model->estimate(g, p, setup->bindings));
    const RuledPick pick = pickAmong(costs, setup->rlxVersion);
    if (const auto skipped = skippedNodes(costs); !skipped.empty())
        std::cerr << path << ": " << skipped.size()
                  << " node(s) not costed: their shapes have unbound symbols (use --bind SYM=N)\n";

    if (args->flag("csv")) {
        printCsv(g, costs);
        return kOk;
    }
    if (!args->flag("json")) {
        if (*precision != Precision::Fp32)
            std::cout << "precision " << precisionName(*precision) << " (what-if: the graph's F32 tensors "
                      << (*precision == Precision::Tf32 ? "multiplied in TF32" : "stored and computed as such")
                      << ")\n";
        printText(g, costs, pick, *setup);
        if (*top > 0)
            printTop(g, costs, static_cast<std::size_t>(*top));
        return kOk;
    }
    Json j;
    j["model"] = setup->model->name();
    if (*precision != Precision::Fp32)
        j["precision"] = std::string(precisionName(*precision));
    j["bindings"] = Json::object();
    for (const auto& [sym, v] : setup->bindings)
        j["bindings"][sym] = v;
    j["rlx_version"] = std::string(rlxVersionName(setup->rlxVersion));
    j["devices"] = Json::array();
    for (std::size_t i = 0; i < costs.size(); ++i) {
        Json d = costJson(g, costs[i]);
        if (!setup->deviceIds[i].empty()) {
            d["device_id"] = setup->deviceIds[i];
            d["device_label"] = setup->deviceLabels[i];
        }
        d["ranked"] = bool(pick.ranked[i]);
        if (*top > 0) {
            d["top"] = topJson(g, costs[i], static_cast<std::size_t>(*top));
            d["top_op_classes"] = opClassJson(g, costs[i]);
        }
        if (!pick.ranked[i])
            d["left_out"] = leftOutReason(costs[i].calibration, setup->rlxVersion);
        j["devices"].push_back(std::move(d));
    }
    j["pick"] = pick.pick ? Json(std::string(deviceName(costs[*pick.pick].device))) : Json();
    if (pick.pick && !setup->deviceIds[*pick.pick].empty())
        j["pick_device_id"] = setup->deviceIds[*pick.pick];
    j["skipped"] = skippedJson(g, costs);
    std::cout << j.dump(2) << '\n';
    return kOk;
}

} // namespace costscope::cli
