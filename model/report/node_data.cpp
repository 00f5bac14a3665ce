// SPDX-License-Identifier: MIT
#include "report/report_writers.h"

#include <nlohmann/json.hpp>

namespace costscope {

// Model Explorer's per-node data overlay, GraphNodeData as defined in google-ai-edge/model-explorer,
// src/server/package/src/model_explorer/node_data_builder.py: {"results": {node key: {"value": number}},
// "gradient": [{"stop": 0..1, "bgColor": hex}, ...]} with stops 0 and 1 always present (0 = min, 1 = max value).
// A result key may be a node id or one of the node's output tensor names; ONNX graphs loaded in Model Explorer use
// the node names we keep, so the key is the node's name, falling back to its id when it has none.
std::string reportNodeData(const Report& r, std::size_t device)
{
    nlohmann::ordered_json results = nlohmann::ordered_json::object();
    for (const ReportNode& n : r.nodes)
        if (!n.skipped && device < n.costNs.size())
            results[n.name.empty() ? std::to_string(n.id) : n.name] = {{"value", n.costNs[device]}};
    nlohmann::ordered_json j;
    j["results"] = results;
    j["gradient"] = {{{"stop", 0}, {"bgColor", "#fff5eb"}},
                     {{"stop", 0.5}, {"bgColor", "#fd8d3c"}},
                     {{"stop", 1}, {"bgColor", "#7f2704"}}};
    return j.dump(2) + '\n';
}

} // namespace costscope
