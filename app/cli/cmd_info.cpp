// SPDX-License-Identifier: MIT
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load.h"
#include "ir/graph_summary.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace costscope::cli {

namespace {
nlohmann::ordered_json tensorsJson(const std::vector<GraphSummary::Tensor>& list)
{
    auto arr = nlohmann::ordered_json::array();
    for (const auto& t : list) {
        nlohmann::ordered_json dims = nlohmann::ordered_json::array();
        for (const Dim& d : t.shape.dims)
            dims.push_back(d.isStatic() ? nlohmann::ordered_json(d.value) : nlohmann::ordered_json(d.symbol));
        arr.push_back({{"id", t.id}, {"name", t.name}, {"dtype", dtypeName(t.shape.dtype)}, {"shape", dims}});
    }
    return arr;
}

void printText(const GraphSummary& s)
{
    std::cout << "name:        " << s.name << '\n'
              << "nodes:       " << s.nodeCount << '\n'
              << "params:      " << s.paramCount << " (" << s.paramBytes << " bytes)\n";
    std::cout << "symbols:     ";
    for (std::size_t i = 0; i < s.symbols.size(); ++i)
        std::cout << (i ? ", " : "") << s.symbols[i];
    std::cout << (s.symbols.empty() ? "(none)\n" : "\n");
    std::cout << "inputs:\n";
    for (const auto& t : s.inputs)
        std::cout << "  " << t.name << "  " << t.shape.toString() << '\n';
    std::cout << "outputs:\n";
    for (const auto& t : s.outputs)
        std::cout << "  node " << t.id << (t.name.empty() ? "" : " (" + t.name + ")") << "  " << t.shape.toString()
                  << '\n';
    std::cout << "ops:\n";
    for (const auto& [op, count] : s.opHistogram)
        std::cout << "  " << op << ' ' << count << '\n';
}
} // namespace

int cmdInfo(const std::vector<std::string>& argv)
{
    std::string err;
    auto args = Args::parse(argv, {"json"}, {}, &err);
    if (!args || args->positional().size() != 1) {
        std::cerr << "usage: costscope-cli info FILE [--json]" << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    auto loaded = loadForCommand(args->positional()[0], args->flag("json"));
    if (!loaded)
        return kBadInput;
    GraphSummary s = summarize(loaded->graph);
    if (!args->flag("json")) {
        printText(s);
        return kOk;
    }
    nlohmann::ordered_json j;
    j["name"] = s.name;
    j["nodes"] = s.nodeCount;
    j["ops"] = s.opHistogram;
    j["inputs"] = tensorsJson(s.inputs);
    j["outputs"] = tensorsJson(s.outputs);
    j["params"] = s.paramCount;
    j["param_bytes"] = s.paramBytes;
    j["symbols"] = s.symbols;
    j["unknown_ops"] = s.unknownOps;
    nlohmann::ordered_json warnings = nlohmann::ordered_json::array();
    for (const auto& w : loaded->warnings)
        warnings.push_back(w.format(args->positional()[0]));
    j["warnings"] = warnings;
    std::cout << j.dump(2) << '\n';
    return kOk;
}

} // namespace costscope::cli
