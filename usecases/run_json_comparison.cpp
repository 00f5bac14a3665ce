// SPDX-License-Identifier: MIT
#include "usecases/run_json_comparison.h"

#include "formats/graph_file.h"
#include "ir/rebatch.h"

namespace costscope {

using Json = nlohmann::ordered_json;

Result<Graph> graphOfRunJson(const Json& run)
{
    if (!run.contains("file") || !run["file"].is_string())
        return Diagnostic::error("the run names no graph file (\"file\")");
    const std::string file = run["file"].get<std::string>();
    auto loaded = loadGraphFile(file);
    if (!loaded)
        return Diagnostic::error("graph " + file + ": " + loaded.error().message);
    if (!run.contains("batch"))
        return std::move(loaded->graph);
    if (!run["batch"].is_number_integer())
        return Diagnostic::error("the run's \"batch\" is not a whole number");
    return rebatch(loaded->graph, run["batch"].get<std::int64_t>());
}

Result<RunComparison> compareRunJson(std::shared_ptr<const Graph> graph, const Json& run,
                                     const std::string& profileName, const std::string& deviceName)
{
    try {
        DeviceInfo device;
        device.backend = run.at("backend").get<std::string>();
        device.index = run.at("device").at("index").get<DeviceIndex>();
        device.name = deviceName;
        const Bindings bindings = run.value("bindings", Bindings{});
        RunResult result;
        result.backend = device.backend;
        const Json& whole = run.at("whole");
        result.whole.runs = whole.at("runs").get<int>();
        result.whole.medianNs = whole.at("median_ns").get<std::int64_t>();
        result.whole.minNs = whole.at("min_ns").get<std::int64_t>();
        result.whole.maxNs = whole.at("max_ns").get<std::int64_t>();
        result.whole.spread = whole.at("spread").get<double>();
        for (const Json& n : run.at("per_node"))
            result.perNode.push_back({n.at("id").get<NodeId>(), n.at("op").get<std::string>(),
                                      n.at("measured_ns").get<std::int64_t>(),
                                      n.value("fused_nodes", std::vector<NodeId>{})});
        auto predicted = predictRun(*graph, bindings, device.backend, profileName);
        if (!predicted)
            return predicted.error();
        RunComparison c = compareRun(std::move(graph), bindings, device, result, *predicted);
        for (const Json& out : run.value("outputs", Json::array()))
            if (out.contains("sum")) // older CLIs wrote none
                c.outputSums.push_back(out.at("sum").get<double>());
        return c;
    } catch (const Json::exception& e) {
        return Diagnostic::error(std::string("not a run JSON as costscope-cli run --json writes it: ") + e.what());
    }
}

} // namespace costscope
