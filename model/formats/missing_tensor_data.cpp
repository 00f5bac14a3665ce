// SPDX-License-Identifier: MIT
#include "formats/missing_tensor_data.h"

#include <nlohmann/json.hpp>

#include <set>

namespace costscope {

namespace {
constexpr const char* kMissingDataKey = "missing_data_file";
}

void markMissingData(Node& n, const std::string& file)
{
    n.extras.emplace_back(kMissingDataKey, RawJson{nlohmann::json(file).dump()});
}

std::vector<MissingTensorData> missingTensorData(const Graph& g)
{
    std::vector<MissingTensorData> out;
    for (const Node& n : g.nodes) {
        if (n.data)
            continue;
        for (const auto& [key, value] : n.extras)
            if (key == kMissingDataKey) {
                const auto file = nlohmann::json::parse(value.text, nullptr, false);
                out.push_back({n.id, n.displayName(), file.is_string() ? file.get<std::string>() : value.text});
            }
    }
    return out;
}

std::string missingDataReason(const Graph& g)
{
    const auto missing = missingTensorData(g);
    if (missing.empty())
        return {};
    std::set<std::string> files;
    for (const MissingTensorData& m : missing)
        files.insert(m.file);
    std::string reason = "cannot run without the values of tensor '" + missing.front().tensor + "', kept in '"
                         + missing.front().file + "', which is missing beside the model";
    if (missing.size() > 1)
        reason += " (" + std::to_string(missing.size()) + " tensors in " + std::to_string(files.size())
                  + " missing file(s) in all)";
    return reason;
}

} // namespace costscope
