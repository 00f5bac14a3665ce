// SPDX-License-Identifier: MIT
#include "formats/costscope_document.h"

#include "formats/json_attrs.h"
#include "formats/rlx_json.h"

namespace costscope {

namespace {
Diagnostic docError(std::string msg)
{
    return Diagnostic::error(std::move(msg));
}

const char* const kKnownKeys[] = {"format",   "version",    "graph",     "positions",   "bindings", "devices",
                                  "profiles", "cost_model", "precision", "rlx_version", "view",     "runs"};

bool isKnownKey(const std::string& k)
{
    for (const char* known : kKnownKeys)
        if (k == known)
            return true;
    return false;
}

Result<bool> readAppState(const OJson& root, CostscopeDocument& doc)
{
    if (root.contains("positions")) {
        const OJson& pos = root["positions"];
        if (!pos.is_object())
            return docError("\"positions\" must be an object of node id → [x, y]");
        for (auto it = pos.begin(); it != pos.end(); ++it) {
            const OJson& xy = it.value();
            if (!xy.is_array() || xy.size() != 2 || !xy[0].is_number() || !xy[1].is_number())
                return docError("position of node " + it.key() + " must be [x, y]");
            try {
                doc.positions[std::stoll(it.key())] = {xy[0].get<double>(), xy[1].get<double>()};
            } catch (const std::exception&) {
                return docError("\"positions\" key \"" + it.key() + "\" is not a node id");
            }
        }
    }
    if (root.contains("bindings")) {
        const OJson& b = root["bindings"];
        if (!b.is_object())
            return docError("\"bindings\" must be an object of symbol → integer");
        for (auto it = b.begin(); it != b.end(); ++it) {
            if (!it.value().is_number_integer())
                return docError("binding \"" + it.key() + "\" must be an integer");
            doc.bindings[it.key()] = it.value().get<std::int64_t>();
        }
    }
    for (const char* key : {"devices", "profiles"}) {
        if (!root.contains(key))
            continue;
        const OJson& list = root[key];
        if (!list.is_array() || !std::all_of(list.begin(), list.end(), [](const OJson& e) { return e.is_string(); }))
            return docError(std::string("\"") + key + "\" must be a list of names");
        (std::string(key) == "devices" ? doc.devices : doc.profiles) = list.get<std::vector<std::string>>();
    }
    for (auto [key, field] : {std::pair{"cost_model", &doc.costModel}, std::pair{"precision", &doc.precision},
                              std::pair{"rlx_version", &doc.rlxVersion}}) {
        if (!root.contains(key))
            continue;
        if (!root[key].is_string())
            return docError(std::string("\"") + key + "\" must be a string");
        *field = root[key].get<std::string>();
    }
    if (root.contains("view"))
        doc.view = RawJson{root["view"].dump()};
    if (root.contains("runs"))
        doc.runs = RawJson{root["runs"].dump()};
    return true;
}
} // namespace

Result<CostscopeDocument> parseCostscopeDocument(const std::string& text, Diagnostics* warnings)
{
    if (auto at = nestingTooDeepAt(text))
        return jsonNestingError(text, *at);
    OJson root;
    try {
        root = OJson::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return jsonSyntaxError(text, e);
    }
    if (!root.is_object() || !root.contains("format") || root["format"] != "costscope")
        return docError("not a Costscope document (\"format\": \"costscope\" missing)");
    if (!root.contains("version") || !root["version"].is_number_integer())
        return docError("document has no integer \"version\"");
    const auto version = root["version"].get<std::int64_t>();
    if (version > kCostscopeDocumentVersion)
        return docError("document version " + std::to_string(version) + " is newer than this Costscope reads ("
                        + std::to_string(kCostscopeDocumentVersion) + "); update Costscope");
    if (!root.contains("graph"))
        return docError("document has no \"graph\"");
    CostscopeDocument doc;
    auto g = parseRlxJson(root["graph"].dump(), warnings);
    if (!g)
        return g.error();
    doc.graph = std::move(*g);
    auto state = readAppState(root, doc);
    if (!state)
        return state.error();
    for (auto it = root.begin(); it != root.end(); ++it)
        if (!isKnownKey(it.key()))
            doc.extras.emplace_back(it.key(), RawJson{it.value().dump()});
    return doc;
}

std::string writeCostscopeDocument(const CostscopeDocument& doc)
{
    OJson root;
    root["format"] = "costscope";
    root["version"] = kCostscopeDocumentVersion;
    root["graph"] = OJson::parse(writeRlxJson(doc.graph));
    OJson pos = OJson::object();
    for (const auto& [id, xy] : doc.positions)
        pos[std::to_string(id)] = {xy.first, xy.second};
    root["positions"] = pos;
    OJson bindings = OJson::object();
    for (const auto& [k, v] : doc.bindings)
        bindings[k] = v;
    root["bindings"] = bindings;
    root["devices"] = doc.devices;
    root["profiles"] = doc.profiles;
    root["cost_model"] = doc.costModel;
    if (!doc.precision.empty())
        root["precision"] = doc.precision;
    if (!doc.rlxVersion.empty())
        root["rlx_version"] = doc.rlxVersion;
    root["view"] = OJson::parse(doc.view.text);
    root["runs"] = OJson::parse(doc.runs.text);
    for (const auto& [k, v] : doc.extras)
        root[k] = OJson::parse(v.text);
    return root.dump(1);
}

} // namespace costscope
